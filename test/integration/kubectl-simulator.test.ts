/**
 * The real kubectl against the simulator: discovery fallback from aggregated discovery, Table
 * output (READY of InferenceServices, Init:Error of pods), -o yaml / jsonpath, logs (current and
 * previous), merge and strategic patches, and RBAC-like errors. kubectl must be installed: the
 * suite fails (never skips) when it is missing.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';

const FIXTURE = path.resolve('test/fixtures/simulator/basic');
const NS = 'kserve-test';
const POD = 'sklearn-iris-predictor-00001-deployment-5f7d4b9996-hzrnc';

let sim: RunningSimulator;
let workDir: string;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs kubectl asynchronously (the simulator answers from this same process). */
function kubectl(...args: string[]): Promise<Result> {
  const kubeconfig = path.join(workDir, 'kubeconfig');
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, '--cache-dir', path.join(workDir, 'cache'), ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: workDir }, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'kubectl-sim-'));
  const version = await new Promise<string | null>((resolve) =>
    execFile('kubectl', ['version', '--client'], (error, stdout) => resolve(error ? null : stdout)),
  );
  if (version === null) {
    throw new Error('kubectl is not on PATH: these tests need the real kubectl. Install it (apt-get install -y kubernetes-client) and run again.');
  }
});

beforeEach(async () => {
  sim = await startSimulator({ snapshot: await loadSnapshot(FIXTURE) });
  await sim.writeKubeconfig(path.join(workDir, 'kubeconfig'));
});

afterEach(async () => {
  await sim.close();
});

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

function rows(text: string): string[][] {
  return text.trim().split('\n').map((line) => line.trim().split(/\s+/));
}

it('lists InferenceServices in all namespaces with the READY column', async () => {
  const result = await kubectl('get', 'inferenceservices', '-A');
  expect(result.code).toBe(0);
  const [header, ...lines] = rows(result.stdout);
  expect(header).toEqual(['NAMESPACE', 'NAME', 'URL', 'READY', 'PREV', 'LATEST', 'AGE']);
  expect(lines).toEqual([
    ['default', 'flowers', 'http://flowers.default.example.com', 'True', expect.any(String)],
    ['kserve-test', 'sklearn-iris', 'http://sklearn-iris.kserve-test.example.com', 'False', '100', expect.stringMatching(/^\d+[ydhms]/)],
  ]);
  // kubectl fell back from aggregated discovery to the legacy documents
  expect(sim.requests.some((r) => r.path === '/apis/serving.kserve.io/v1beta1')).toBe(true);
});

it('prints one object as YAML and a field with jsonpath', async () => {
  const yaml = await kubectl('get', 'isvc', 'sklearn-iris', '-n', NS, '-o', 'yaml');
  expect(yaml.code).toBe(0);
  expect(yaml.stdout).toContain('kind: InferenceService');
  expect(yaml.stdout).toContain('storageUri: gs://kfserving-examples/models/sklearn/1.0/model-missing');
  expect(yaml.stdout).toMatch(/uid: [0-9a-f-]{36}/);
  const jsonpath = await kubectl('get', 'isvc', 'sklearn-iris', '-n', NS, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].reason}');
  expect(jsonpath.stdout).toBe('RevisionMissing');
});

it('shows pod status like a cluster: Init:Error and Running', async () => {
  const result = await kubectl('get', 'pods', '-A');
  expect(result.code).toBe(0);
  const [header, ...lines] = rows(result.stdout);
  expect(header).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
  expect(lines.map((l) => l.slice(0, 5))).toEqual([
    ['default', 'flowers-predictor-default-7b9c-abcde', '2/2', 'Running', '0'],
    [NS, POD, '0/2', 'Init:Error', '3'],
  ]);
  const inNamespace = await kubectl('get', 'pods', '-n', NS, '-l', 'component=predictor');
  expect(inNamespace.stdout).toContain('Init:Error');
});

it('prints container logs, current and previous', async () => {
  const current = await kubectl('logs', POD, '-n', NS, '-c', 'storage-initializer');
  expect(current.code).toBe(0);
  expect(current.stdout).toContain('RuntimeError: Failed to fetch model.');
  const tail = await kubectl('logs', POD, '-n', NS, '-c', 'storage-initializer', '--tail', '1');
  expect(tail.stdout.trim().split('\n')).toHaveLength(1);
  const previous = await kubectl('logs', POD, '-n', NS, '-c', 'storage-initializer', '--previous');
  expect(previous.code).toBe(0);
  expect(previous.stdout).toContain('previous attempt failed too');
  const none = await kubectl('logs', POD, '-n', NS, '-c', 'kserve-container', '--previous');
  expect(none.code).not.toBe(0);
  expect(none.stderr).toContain('previous terminated container "kserve-container"');
});

it('merge-patches an InferenceService, then shows the change', async () => {
  const patch = await kubectl('patch', 'isvc', 'sklearn-iris', '-n', NS, '--type', 'merge', '-p', '{"spec":{"predictor":{"model":{"storageUri":"gs://fixed/model"}}}}');
  expect(patch.code).toBe(0);
  expect(patch.stdout).toContain('inferenceservice.serving.kserve.io/sklearn-iris patched');
  const get = await kubectl('get', 'isvc', 'sklearn-iris', '-n', NS, '-o', 'jsonpath={.spec.predictor.model.storageUri} {.metadata.generation}');
  expect(get.stdout).toBe('gs://fixed/model 2');
  expect(sim.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
});

it('strategic-patches a pod, JSON-patches a ConfigMap', async () => {
  const pod = await kubectl('patch', 'pod', 'flowers-predictor-default-7b9c-abcde', '-p', '{"metadata":{"labels":{"checked":"yes"}}}');
  expect(pod.code).toBe(0);
  expect(sim.store.get('v1', 'Pod', 'default', 'flowers-predictor-default-7b9c-abcde')?.metadata.labels).toMatchObject({ checked: 'yes', component: 'predictor' });
  const cm = await kubectl('patch', 'cm', 'inferenceservice-config', '-n', 'kserve', '--type', 'json', '-p', '[{"op":"add","path":"/data/extra","value":"1"}]');
  expect(cm.code).toBe(0);
  expect((await kubectl('get', 'cm', '-n', 'kserve')).stdout).toMatch(/inferenceservice-config\s+3\s/);
});

it('reports errors as the API server does', async () => {
  const missing = await kubectl('get', 'isvc', 'nope', '-n', NS);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('Error from server (NotFound): inferenceservices.serving.kserve.io "nope" not found');
  const forbidden = await kubectl('get', 'clusterrbacconfigs');
  expect(forbidden.code).toBe(1);
  expect(forbidden.stderr).toContain(
    'Error from server (Forbidden): clusterrbacconfigs.rbac.istio.io is forbidden: User "system:serviceaccount:isvc-doctor:isvc-doctor" cannot list resource "clusterrbacconfigs" in API group "rbac.istio.io" at the cluster scope',
  );
  const empty = await kubectl('get', 'ksvc', '-A');
  expect(empty.code).toBe(0);
  expect(empty.stderr).toContain('No resources found');
});
