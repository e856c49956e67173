/**
 * The kubectl plugin: with the package's bins on PATH (kubectl-isvc_doctor, kubectl_complete-isvc_doctor,
 * linked to the built CLI as npm links them), the real kubectl runs `kubectl isvc-doctor …` and, from
 * kubectl 1.26, completes its words through the plugin.
 */
import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { ensureBuilt } from '../support/ensure-built.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { startTwoNamespaceCluster, type TwoNamespaceCluster } from '../support/two-namespace-cluster.js';

const SCENARIO = path.resolve('test/scenarios/storage-uri-not-found');
let cluster: TwoNamespaceCluster;
let bin: string;
let kubectlMinor = 0;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real kubectl, asynchronously (the simulator answers from this process), with the plugin's bins on PATH. */
// each test runs kubectl and the plugin as child processes: slow on a loaded machine, not a failure
jest.setTimeout(120_000);

function kubectl(...args: string[]): Promise<Result> {
  return new Promise((resolve) =>
    // a tab's 3 s wait for the cluster is raised: on a loaded CI machine these tests check the candidates, not the wait
    execFile(
      'kubectl',
      args,
      {
        env: { PATH: `${bin}:${process.env.PATH}`, HOME: bin, ISVC_DOCTOR_COMPLETION_TIMEOUT_MS: '60000' },
        timeout: 90_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? -1) : 0, stdout, stderr }),
    ),
  );
}

beforeAll(async () => {
  ensureBuilt();
  bin = tempDir('isvc-doctor-plugin-');
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> };
  for (const name of ['kubectl-isvc_doctor', 'kubectl_complete-isvc_doctor'])
    symlinkSync(path.resolve(pkg.bin[name]!), path.join(bin, name));
  cluster = await startTwoNamespaceCluster();
  const version = await kubectl('version', '--client', '-o', 'json');
  if (version.code !== 0)
    throw new Error(
      `kubectl is not on PATH: these tests need the real kubectl (apt-get install -y kubernetes-client): ${version.stderr}`,
    );
  kubectlMinor = parseInt((JSON.parse(version.stdout) as { clientVersion: { minor: string } }).clientVersion.minor, 10);
});
afterAll(async () => {
  await cluster?.close();
  removeTempDirs();
});

it('runs `kubectl isvc-doctor diagnose` with the exit status and output of isvc-doctor', async () => {
  const r = await kubectl('isvc-doctor', 'diagnose', 'sklearn-iris', '--snapshot', SCENARIO, '-o', 'json');
  expect(r.code).toBe(1);
  expect((JSON.parse(r.stdout) as { rootCause: string }).rootCause).toBe('STORAGE_URI_NOT_FOUND');
});

it('passes kubectl-style flags through: `kubectl isvc-doctor status -A --kubeconfig F --context C`', async () => {
  const r = await kubectl('isvc-doctor', 'status', '-A', '--kubeconfig', cluster.kubeconfig, '--context', 'plain');
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^payments-ml\s+fraud-lgbm\s+False\s+OOM_KILLED/m);
  const bad = await kubectl('isvc-doctor', 'status', '--kubeconfig', cluster.kubeconfig, '--context', 'nope');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/^kubectl isvc-doctor: context "nope" does not exist/);
});

it('says "kubectl isvc-doctor" in its help', async () => {
  const r = await kubectl('isvc-doctor', 'diagnose', '--help');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('usage: kubectl isvc-doctor diagnose NAME');
});

it('lets kubectl (1.26 and newer) complete the plugin: commands, and names from the cluster', async () => {
  if (kubectlMinor < 26) {
    // kubectl before 1.26 has no plugin completion: it must still run the plugin (above)
    expect((await kubectl('__complete', 'isvc-doctor', '')).stdout).not.toContain('diagnose');
    return;
  }
  expect((await kubectl('__complete', 'isvc-doctor', 'dia')).stdout).toMatch(/^diagnose\t/m);
  const names = await kubectl(
    '__complete',
    'isvc-doctor',
    'diagnose',
    '--kubeconfig',
    cluster.kubeconfig,
    '-n',
    'default',
    '',
  );
  expect(names.stdout.split('\n').filter((l) => !l.startsWith(':') && l)).toEqual(['sklearn-iris', 'sklearn-iris-v2']);
});
