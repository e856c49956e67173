/** `isvc-doctor simulate`: usage errors and bad snapshots exit 2 with one line; a good run serves until SIGTERM. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { jest } from '@jest/globals';
import { runSimulateCommand } from '../../src/cli/simulate-command.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

afterAll(removeTempDirs);

const FIXTURES = path.resolve('test/fixtures/simulator');

function captureOutput() {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  return {
    out: () => out.join(''),
    err: () => err.join(''),
    restore: () => {
      stdout.mockRestore();
      stderr.mockRestore();
    },
  };
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const output = captureOutput();
  try {
    const code = await runSimulateCommand(argv);
    return { code, out: output.out(), err: output.err() };
  } finally {
    output.restore();
  }
}

it.each([
  [[], /--snapshot DIR is required/],
  [['--snapshot'], /argument missing|--snapshot/],
  [['--snapshot', 'x', '--bogus'], /Unknown option '--bogus'/],
  [['--snapshot', 'x', '--port', 'abc'], /--port must be a whole number/],
  [['--snapshot', 'x', 'extra'], /Unexpected argument 'extra'|positional/],
])('rejects bad usage %j with status 2', async (argv, message) => {
  const { code, out, err } = await run(argv);
  expect(code).toBe(2);
  expect(out).toBe('');
  expect(err).toMatch(message);
  expect(err).not.toMatch(/\n\s+at /);
});

it('rejects a missing folder and YAML that does not parse, naming file and line', async () => {
  const missing = await run(['--snapshot', '/nonexistent/dir']);
  expect(missing).toMatchObject({ code: 2, out: '' });
  expect(missing.err).toContain('isvc-doctor simulate: /nonexistent/dir: snapshot folder does not exist\n');
  const bad = await run(['simulate', '--snapshot', path.join(FIXTURES, 'bad-yaml')]);
  expect(bad.code).toBe(2);
  const ours = bad.err.split('\n').filter((line) => line.startsWith('isvc-doctor simulate:'));
  expect(ours).toEqual([expect.stringMatching(/bad-yaml\/objects\.yaml:9: .+$/)]);
  expect(bad.err).not.toMatch(/\n\s+at /);
});

it('refuses a cluster.yaml that its objects contradict, with one line naming the file and key', async () => {
  const dir = tempDir('simulate-cluster-');
  await writeFile(
    path.join(dir, 'objects.yaml'),
    'apiVersion: serving.kubeflow.org/v1beta1\nkind: InferenceService\nmetadata: {name: flowers, namespace: default}\n',
  );
  await writeFile(path.join(dir, 'cluster.yaml'), 'kfserving: 0.4\n');
  const result = await run(['--snapshot', dir]);
  expect(result).toMatchObject({ code: 2, out: '' });
  expect(result.err).toBe(
    `isvc-doctor simulate: ${path.join(dir, 'cluster.yaml')}: \`kfserving\`: KFServing 0.4 does not serve serving.kubeflow.org/v1beta1 InferenceService (InferenceService default/flowers in objects.yaml)\n`,
  );
});

it('serves until SIGTERM, printing the URL and writing a kubeconfig', async () => {
  expect(process.listenerCount('SIGTERM')).toBe(0);
  const kubeconfig = path.join(tempDir('simulate-'), 'kubeconfig');
  const output = captureOutput();
  try {
    const done = runSimulateCommand([
      '--snapshot',
      path.join(FIXTURES, 'basic'),
      '--port',
      '0',
      '--latency',
      '1',
      '--kubeconfig-out',
      kubeconfig,
    ]);
    const deadline = Date.now() + 20_000;
    while (!output.out().includes('\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(output.out());
    expect(match).not.toBeNull();
    const version = (await (await fetch(`${match![1]}/version`)).json()) as { gitVersion: string };
    expect(version.gitVersion).toBe('v1.29.0');
    expect(await readFile(kubeconfig, 'utf8')).toContain(`server: ${match![1]}`);
    process.emit('SIGTERM');
    expect(await done).toBe(0);
    expect(process.listenerCount('SIGTERM')).toBe(0);
  } finally {
    output.restore();
  }
});
