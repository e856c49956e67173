/**
 * The bin as `npm run build` ships it: an ES module bundle whose subcommands load lazily, with
 * Node's compile cache in the CLI's cache folder, which the first run writes and later runs take,
 * with the same report; a damaged cache changes nothing but speed. The bundle holds, of
 * client-node's API clients, only the ones the code uses (each is thousands of functions to read
 * and to keep in the cache); the SOCKS proxy agent it loads only when a kubeconfig asks for one
 * still carries the requests.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../support/ensure-built.js';

const BIN = 'dist/src/cli/isvc-doctor.js';
const CHUNKS = 'dist/src/bundle';
const cacheHome = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-bundled-bin-'));
const compileCache = path.join(cacheHome, 'isvc-doctor', 'compile-cache');
afterAll(() => rmSync(cacheHome, { recursive: true, force: true }));

beforeAll(() => ensureBuilt(), 180_000);

function diagnose(): { rootCause: string; findings: Array<{ code: string }> } {
  const run = spawnSync(
    process.execPath,
    [BIN, 'diagnose', 'sklearn-iris', '--snapshot', 'test/scenarios/oom-exit-code-137', '-o', 'json'],
    {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: cacheHome },
    },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(1);
  return JSON.parse(run.stdout) as { rootCause: string; findings: Array<{ code: string }> };
}

const codes = (report: { findings: Array<{ code: string }> }) => report.findings.map((f) => f.code);

/** Every file under a folder, with its path. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

it("holds client-node's API clients the code uses, not every one client-node exports", () => {
  const text = readdirSync(CHUNKS)
    .map((name) => readFileSync(path.join(CHUNKS, name), 'latin1'))
    .join('\n');
  for (const used of ['CoreV1Api', 'AppsV1Api', 'CustomObjectsApi', 'ApisApi'])
    expect(text).toContain(`"${used}RequestFactory"`);
  for (const unused of ['BatchV1Api', 'RbacAuthorizationV1Api', 'StorageV1Api', 'NetworkingV1Api'])
    expect(text).not.toContain(`${unused}RequestFactory`);
});

it('writes the compile cache on the first diagnose and reports the same from it afterwards', () => {
  const first = diagnose();
  expect(first.rootCause).toBe('OOM_KILLED');
  const written = filesUnder(compileCache);
  expect(written.length).toBeGreaterThan(0);
  const cached = diagnose();
  expect(cached.rootCause).toBe('OOM_KILLED');
  expect(codes(cached)).toEqual(codes(first));
});

it('diagnoses the same with a damaged cache', () => {
  for (const file of filesUnder(compileCache)) writeFileSync(file, Buffer.alloc(4096, 7));
  expect(diagnose().rootCause).toBe('OOM_KILLED');
  rmSync(compileCache, { recursive: true });
  const help = spawnSync(process.execPath, [BIN, 'diagnose', '--help'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cacheHome },
  });
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/^usage: isvc-doctor diagnose NAME/m);
});

it('sends the requests through a SOCKS proxy when the kubeconfig names one', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const proxyPort = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve)); // a free port nobody listens on: the proxy is down
  const kubeconfig = path.join(cacheHome, 'socks.kubeconfig');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: 'http://127.0.0.1:6443', proxy-url: 'socks5://127.0.0.1:${proxyPort}' } }]
users: [{ name: u, user: {} }]
contexts: [{ name: x, context: { cluster: c, user: u, namespace: default } }]
current-context: x
`,
  );
  const run = spawnSync(process.execPath, [BIN, 'diagnose', 'sklearn-iris', '--kubeconfig', kubeconfig], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cacheHome },
  });
  expect(run.status).toBe(3);
  expect(run.stderr).toContain(`ECONNREFUSED 127.0.0.1:${proxyPort}`);
});
