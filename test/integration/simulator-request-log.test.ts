/** `isvc-doctor simulate --request-log FILE`: one JSON line per answered request, for counting from outside (`npm run bench`). */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { runSimulateCommand } from '../../src/cli/simulate-command.js';

const FIXTURES = path.resolve('test/fixtures/simulator');
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'simulate-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('appends one line per request with what was asked, its status, and when it arrived and was answered', async () => {
  const log = path.join(dir, 'requests.jsonl');
  const out: string[] = [];
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  try {
    const done = runSimulateCommand([
      '--snapshot',
      path.join(FIXTURES, 'basic'),
      '--latency',
      '30',
      '--request-log',
      log,
    ]);
    const deadline = Date.now() + 20_000;
    while (!out.join('').includes('\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (\S+)/.exec(out.join(''))![1]!;
    await (await fetch(`${url}/api/v1/namespaces/kserve-test/pods?labelSelector=app%3Dx`)).text();
    await (await fetch(`${url}/apis/serving.kserve.io/v1beta1/namespaces/default/inferenceservices/missing`)).text();
    process.emit('SIGTERM');
    expect(await done).toBe(0);
  } finally {
    stdout.mockRestore();
  }
  const lines = (await readFile(log, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);
  expect(lines).toEqual([
    expect.objectContaining({
      method: 'GET',
      verb: 'list',
      resource: 'pods',
      namespace: 'kserve-test',
      query: { labelSelector: 'app=x' },
      status: 200,
    }),
    expect.objectContaining({
      verb: 'get',
      group: 'serving.kserve.io',
      resource: 'inferenceservices',
      name: 'missing',
      status: 404,
    }),
  ]);
  // answered after the 30 ms latency (a timer may fire a millisecond early on the wall clock)
  for (const line of lines) expect(line.doneAt - line.at).toBeGreaterThanOrEqual(25);
});
