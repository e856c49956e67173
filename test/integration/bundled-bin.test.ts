/**
 * The bin as `npm run build` ships it: `diagnose` runs from the one-file bundle through a code cache
 * in the CLI's cache folder, which the first run writes and later runs take, with the same report;
 * a damaged cache changes nothing but speed, and help writes none. The bundle is what a node:vm
 * script can run fast: ASCII only (a one-byte source string), an id line, no import(), and of
 * client-node's API clients only the ones the code uses (each is thousands of functions to read and
 * keep in the code cache); the SOCKS
 * proxy agent it loads only when a kubeconfig asks for one still carries the requests.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../support/ensure-built.js';

const BIN = 'dist/src/cli/isvc-doctor.js';
const BUNDLE = 'dist/src/bundle/isvc-doctor.cjs';
const cacheHome = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-bundled-bin-'));
const codeCache = path.join(cacheHome, 'isvc-doctor', 'code-cache');
afterAll(() => rmSync(cacheHome, { recursive: true, force: true }));

beforeAll(() => ensureBuilt(), 180_000);

function diagnose(): { rootCause: string; findings: Array<{ code: string }> } {
  const run = spawnSync(process.execPath, [BIN, 'diagnose', 'sklearn-iris', '--snapshot', 'test/scenarios/oom-exit-code-137', '-o', 'json'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cacheHome },
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(1);
  return JSON.parse(run.stdout) as { rootCause: string; findings: Array<{ code: string }> };
}

const codes = (report: { findings: Array<{ code: string }> }) => report.findings.map((f) => f.code);

it('is ASCII only, names its build on its first line and holds no import()', () => {
  const bytes = readFileSync(BUNDLE);
  expect(bytes.every((b) => b < 0x80)).toBe(true);
  const text = bytes.toString('latin1');
  expect(text).toMatch(/^\/\* isvc-doctor bundle [0-9a-f]{20} \*\/\n/);
  expect(text).not.toMatch(/\bimport\(/);
});

it("holds client-node's API clients the code uses, not every one client-node exports", () => {
  const text = readFileSync(BUNDLE, 'latin1');
  for (const used of ['CoreV1Api', 'AppsV1Api', 'CustomObjectsApi', 'ApisApi']) expect(text).toContain(`"${used}RequestFactory"`);
  for (const unused of ['BatchV1Api', 'RbacAuthorizationV1Api', 'StorageV1Api', 'NetworkingV1Api']) expect(text).not.toContain(`${unused}RequestFactory`);
});

it('writes the code cache on the first diagnose and reports the same from it afterwards', () => {
  const first = diagnose();
  expect(first.rootCause).toBe('OOM_KILLED');
  const id = /^\/\* isvc-doctor bundle ([0-9a-f]+) /.exec(readFileSync(BUNDLE, 'latin1'))![1]!;
  expect(readdirSync(codeCache)).toEqual([expect.stringMatching(new RegExp(`^${id}-${process.version}-${process.arch}(-[0-9a-f]{8})?-diagnose\\.v8$`))]);
  const cached = diagnose();
  expect(cached.rootCause).toBe('OOM_KILLED');
  expect(codes(cached)).toEqual(codes(first));
});

it('diagnoses the same with a damaged cache, and writes no cache for help', () => {
  const [file] = readdirSync(codeCache);
  writeFileSync(path.join(codeCache, file!), Buffer.alloc(4096, 7));
  expect(diagnose().rootCause).toBe('OOM_KILLED');
  rmSync(codeCache, { recursive: true });
  const help = spawnSync(process.execPath, [BIN, 'diagnose', '--help'], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome } });
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/^usage: isvc-doctor diagnose NAME/m);
  expect(existsSync(codeCache)).toBe(false);
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
clusters: [{ name: c, cluster: { server: 'http://127.0.0.1:1', proxy-url: 'socks5://127.0.0.1:${proxyPort}' } }]
users: [{ name: u, user: {} }]
contexts: [{ name: x, context: { cluster: c, user: u, namespace: default } }]
current-context: x
`,
  );
  const run = spawnSync(process.execPath, [BIN, 'diagnose', 'sklearn-iris', '--kubeconfig', kubeconfig], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome } });
  expect(run.status).toBe(3);
  expect(run.stderr).toContain(`ECONNREFUSED 127.0.0.1:${proxyPort}`);
});
