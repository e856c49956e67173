/**
 * The real kubectl against the simulator: aggregated discovery (and the legacy fallback on older
 * clusters), only the API groups the snapshot's cluster has, objects at every served version
 * (KFServing v1alpha2 / v1beta1), Table output (READY of InferenceServices, Init:Error of pods),
 * -o yaml / jsonpath, paged lists, logs (current and previous), merge and strategic patches,
 * apply and explain through OpenAPI v3, and RBAC-like errors. kubectl must be installed: the suite
 * fails (never skips) when it is missing.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSnapshot, type Snapshot } from '../../src/snapshot/load-snapshot.js';
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
  return kubectlWith('kubeconfig', ...args);
}

/** kubectl with a kubeconfig file of workDir (and its own discovery cache). */
function kubectlWith(config: string, ...args: string[]): Promise<Result> {
  const kubeconfig = path.join(workDir, config);
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, '--cache-dir', path.join(workDir, `cache-${config}`), ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: workDir }, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error
          ? typeof (error as { code?: unknown }).code === 'number'
            ? (error as { code: number }).code
            : -1
          : 0;
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
    throw new Error(
      'kubectl is not on PATH: these tests need the real kubectl. Install it (apt-get install -y kubernetes-client) and run again.',
    );
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
  return text
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/));
}

it('lists InferenceServices in all namespaces with the READY column', async () => {
  const result = await kubectl('get', 'inferenceservices', '-A');
  expect(result.code).toBe(0);
  const [header, ...lines] = rows(result.stdout);
  expect(header).toEqual([
    'NAMESPACE',
    'NAME',
    'URL',
    'READY',
    'PREV',
    'LATEST',
    'PREVROLLEDOUTREVISION',
    'LATESTREADYREVISION',
    'AGE',
  ]);
  expect(lines).toEqual([
    ['default', 'flowers', 'http://flowers.default.example.com', 'True', expect.any(String)],
    [
      'kserve-test',
      'sklearn-iris',
      'http://sklearn-iris.kserve-test.example.com',
      'False',
      '100',
      'sklearn-iris-predictor-00001',
      expect.stringMatching(/^\d+[ydhms]/),
    ],
  ]);
  // one aggregated discovery document per root, no per-group documents
  expect(sim.requests.filter((r) => r.path === '/apis')).toHaveLength(1);
  expect(sim.requests.some((r) => r.path === '/apis/serving.kserve.io/v1beta1')).toBe(false);
});

it('prints one object as YAML and a field with jsonpath', async () => {
  const yaml = await kubectl('get', 'isvc', 'sklearn-iris', '-n', NS, '-o', 'yaml');
  expect(yaml.code).toBe(0);
  expect(yaml.stdout).toContain('kind: InferenceService');
  expect(yaml.stdout).toContain('storageUri: gs://kfserving-examples/models/sklearn/1.0/model-missing');
  expect(yaml.stdout).toMatch(/uid: [0-9a-f-]{36}/);
  const jsonpath = await kubectl(
    'get',
    'isvc',
    'sklearn-iris',
    '-n',
    NS,
    '-o',
    'jsonpath={.status.conditions[?(@.type=="Ready")].reason}',
  );
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
  const patch = await kubectl(
    'patch',
    'isvc',
    'sklearn-iris',
    '-n',
    NS,
    '--type',
    'merge',
    '-p',
    '{"spec":{"predictor":{"model":{"storageUri":"gs://fixed/model"}}}}',
  );
  expect(patch.code).toBe(0);
  expect(patch.stdout).toContain('inferenceservice.serving.kserve.io/sklearn-iris patched');
  const get = await kubectl(
    'get',
    'isvc',
    'sklearn-iris',
    '-n',
    NS,
    '-o',
    'jsonpath={.spec.predictor.model.storageUri} {.metadata.generation}',
  );
  expect(get.stdout).toBe('gs://fixed/model 2');
  expect(sim.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
});

it('strategic-patches a pod, JSON-patches a ConfigMap', async () => {
  const pod = await kubectl(
    'patch',
    'pod',
    'flowers-predictor-default-7b9c-abcde',
    '-p',
    '{"metadata":{"labels":{"checked":"yes"}}}',
  );
  expect(pod.code).toBe(0);
  expect(sim.store.get('v1', 'Pod', 'default', 'flowers-predictor-default-7b9c-abcde')?.metadata.labels).toMatchObject({
    checked: 'yes',
    component: 'predictor',
  });
  const cm = await kubectl(
    'patch',
    'cm',
    'inferenceservice-config',
    '-n',
    'kserve',
    '--type',
    'json',
    '-p',
    '[{"op":"add","path":"/data/extra","value":"1"}]',
  );
  expect(cm.code).toBe(0);
  expect((await kubectl('get', 'cm', '-n', 'kserve')).stdout).toMatch(/inferenceservice-config\s+3\s/);
});

it('reports errors as the API server does', async () => {
  const missing = await kubectl('get', 'isvc', 'nope', '-n', NS);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain(
    'Error from server (NotFound): inferenceservices.serving.kserve.io "nope" not found',
  );
  const forbidden = await kubectl('get', 'clusterrbacconfigs');
  expect(forbidden.code).toBe(1);
  expect(forbidden.stderr).toContain(
    'Error from server (Forbidden): clusterrbacconfigs.rbac.istio.io is forbidden: User "system:serviceaccount:isvc-doctor:isvc-doctor" cannot list resource "clusterrbacconfigs" in API group "rbac.istio.io" at the cluster scope',
  );
  const empty = await kubectl('get', 'ksvc', '-A');
  expect(empty.code).toBe(0);
  expect(empty.stderr).toContain('No resources found');
});

describe('a snapshot served as the cluster it comes from', () => {
  const V1ALPHA2 = path.resolve('test/scenarios/storage-uri-not-found');
  const others: RunningSimulator[] = [];

  afterEach(async () => {
    await Promise.all(others.splice(0).map((o) => o.close()));
  });

  /** Serves a snapshot (optionally as another cluster) under its own kubeconfig name. */
  async function serve(name: string, snapshot: Snapshot, cluster?: Snapshot['cluster']): Promise<RunningSimulator> {
    const other = await startSimulator({ snapshot: { ...snapshot, ...(cluster ? { cluster } : {}) } });
    others.push(other);
    await other.writeKubeconfig(path.join(workDir, name));
    return other;
  }

  it('kubectl get inferenceservices -A lists the objects of a v1alpha2 snapshot (KFServing 0.3)', async () => {
    const other = await serve('kfserving-03', await loadSnapshot(V1ALPHA2));
    const list = await kubectlWith('kfserving-03', 'get', 'inferenceservices', '-A');
    expect(list.code).toBe(0);
    const [header, ...lines] = list.stdout.trim().split('\n');
    expect(header).toMatch(/^NAMESPACE\s+NAME\s+URL\s+READY\s+DEFAULT TRAFFIC\s+CANARY TRAFFIC\s+AGE$/);
    expect(lines.map((l) => l.split(/\s+/).slice(0, 2))).toEqual([['default', 'sklearn-iris']]);
    const uri = await kubectlWith(
      'kfserving-03',
      'get',
      'inferenceservices.serving.kubeflow.org',
      'sklearn-iris',
      '-o',
      'jsonpath={.apiVersion} {.spec.default.predictor.sklearn.storageUri}',
    );
    expect(uri.stdout).toBe('serving.kubeflow.org/v1alpha2 gs://kfserving-samples/models/sklearn/iris-1');
    // this cluster has no KServe: the group is absent, as on a real KFServing 0.3 cluster
    const kserve = await kubectlWith('kfserving-03', 'get', 'inferenceservices.serving.kserve.io', '-A');
    expect(kserve.code).toBe(1);
    expect(kserve.stderr).toContain(`the server doesn't have a resource type "inferenceservices"`);
    expect(
      other.requests.filter((r) => r.resource === 'inferenceservices').map((r) => `${r.group}/${r.version}`),
    ).toEqual(['serving.kubeflow.org/v1alpha2', 'serving.kubeflow.org/v1alpha2']);
  });

  it('on KFServing 0.5 the same snapshot lists at v1beta1, converted, and still reads at v1alpha2', async () => {
    await serve('kfserving-05', await loadSnapshot(V1ALPHA2), { kfserving: '0.5' });
    const list = await kubectlWith('kfserving-05', 'get', 'inferenceservices', '-A');
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(
      /^NAMESPACE\s+NAME\s+URL\s+READY\s+PREV\s+LATEST\s+PREVROLLEDOUTREVISION\s+LATESTREADYREVISION\s+AGE$/,
    );
    expect(list.stdout).toContain('sklearn-iris');
    const v1beta1 = await kubectlWith(
      'kfserving-05',
      'get',
      'inferenceservices.serving.kubeflow.org',
      'sklearn-iris',
      '-o',
      'jsonpath={.apiVersion} {.spec.predictor.sklearn.storageUri} {.status.components.predictor.latestCreatedRevision}',
    );
    expect(v1beta1.stdout).toBe(
      'serving.kubeflow.org/v1beta1 gs://kfserving-samples/models/sklearn/iris-1 sklearn-iris-predictor-default-29jks',
    );
    const v1alpha2 = await kubectlWith(
      'kfserving-05',
      'get',
      'inferenceservices.v1alpha2.serving.kubeflow.org',
      'sklearn-iris',
      '-o',
      'jsonpath={.spec.default.predictor.sklearn.storageUri}',
    );
    expect(v1alpha2.stdout).toBe('gs://kfserving-samples/models/sklearn/iris-1');
  });

  it('an older cluster: /version from cluster.yaml, legacy discovery, Ingress only at v1beta1', async () => {
    const other = await serve(
      'k8s-118',
      { dir: '/nonexistent', objects: [], logs: new Map(), deny: [] },
      { kubernetes: '1.18' },
    );
    const version = await kubectlWith('k8s-118', 'version', '-o', 'json');
    expect(JSON.parse(version.stdout).serverVersion.gitVersion).toBe('v1.18.0');
    const resources = await kubectlWith('k8s-118', 'api-resources', '--api-group=networking.k8s.io', '-o', 'name');
    expect(resources.stdout.trim().split('\n').sort()).toEqual([
      'ingressclasses.networking.k8s.io',
      'ingresses.networking.k8s.io',
      'networkpolicies.networking.k8s.io',
    ]);
    const ingress = await kubectlWith('k8s-118', 'get', 'ingresses.v1.networking.k8s.io');
    expect(ingress.code).toBe(1);
    // no aggregated discovery before 1.26: kubectl read the group version documents
    expect(other.requests.some((r) => r.path === '/apis/networking.k8s.io/v1beta1')).toBe(true);
  });

  it('pages lists with --chunk-size and follows the continue token', async () => {
    const objects = Array.from({ length: 5 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, namespace: 'paged' },
      data: {},
    }));
    const other = await serve('paged', { dir: '/nonexistent', objects, logs: new Map(), deny: [] });
    const result = await kubectlWith('paged', 'get', 'configmaps', '-n', 'paged', '--chunk-size=2', '-o', 'name');
    expect(result.stdout.trim().split('\n')).toEqual(objects.map((o) => `configmap/${o.metadata.name}`));
    const lists = other.requests.filter((r) => r.resource === 'configmaps');
    expect(lists.map((r) => [r.query.limit, Boolean(r.query.continue)])).toEqual([
      ['2', false],
      ['2', true],
      ['2', true],
    ]);
  });

  it('applies a manifest (server-side field validation found in OpenAPI v3) and explains a kind', async () => {
    const manifest = path.join(workDir, 'isvc.yaml');
    await writeFile(
      manifest,
      'apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: created, namespace: kserve-test}\nspec: {predictor: {model: {modelFormat: {name: sklearn}, storageUri: gs://x}}}\n',
    );
    const apply = await kubectl('apply', '-f', manifest);
    expect(apply.stderr).toBe('');
    expect(apply.stdout.trim()).toBe('inferenceservice.serving.kserve.io/created created');
    expect(sim.requests.find((r) => r.method === 'POST')?.query.fieldValidation).toBe('Strict');
    const explain = await kubectl('explain', 'pods.spec.containers.ports');
    expect(explain.code).toBe(0);
    expect(explain.stdout).toMatch(/FIELD:\s+ports <\[\]ContainerPort>/);
    expect(explain.stdout).toMatch(/containerPort\s+<integer>/);
  });
});

describe('a KServe 0.20 cluster with its LLM serving stack', () => {
  const LLM = path.resolve('test/fixtures/simulator/kserve-0.20');
  let llm: RunningSimulator;

  beforeEach(async () => {
    llm = await startSimulator({ snapshot: await loadSnapshot(LLM) });
    await llm.writeKubeconfig(path.join(workDir, 'kserve-020'));
  });

  afterEach(async () => {
    await llm.close();
  });

  const get = (...args: string[]) => kubectlWith('kserve-020', 'get', ...args);

  it('kubectl get llmisvc prints URL, READY and REASON; v1alpha1 reads the same object', async () => {
    const list = await get('llmisvc', '-n', 'llm');
    expect(list.code).toBe(0);
    const [header, ...lines] = rows(list.stdout);
    expect(header).toEqual(['NAME', 'URL', 'READY', 'REASON', 'AGE']);
    expect(lines.map((l) => l.slice(0, 4))).toEqual([
      ['llama-dp', 'False', 'AllGroupsReady', expect.any(String)],
      ['qwen', 'http://llm-gateway.example.com/llm/qwen', 'True', expect.any(String)],
    ]);
    const wide = await get('llmisvc', 'qwen', '-n', 'llm', '-o', 'wide');
    expect(rows(wide.stdout)[0]).toEqual(['NAME', 'URL', 'READY', 'REASON', 'AGE', 'URLS']);
    const v1alpha1 = await get(
      'llminferenceservices.v1alpha1.serving.kserve.io',
      'qwen',
      '-n',
      'llm',
      '-o',
      'jsonpath={.apiVersion} {.spec.model.uri}',
    );
    expect(v1alpha1.stdout).toBe('serving.kserve.io/v1alpha1 hf://Qwen/Qwen2.5-0.5B-Instruct');
  });

  it('Gateway API kinds print their columns: gatewayclass, gateway (PROGRAMMED), httproute (HOSTNAMES)', async () => {
    const classes = await get('gc');
    expect(rows(classes.stdout)).toEqual([
      ['NAME', 'CONTROLLER', 'ACCEPTED', 'AGE'],
      ['istio', 'istio.io/gateway-controller', 'True', expect.any(String)],
    ]);
    const gateways = await get('gtw', '-A');
    expect(rows(gateways.stdout)).toEqual([
      ['NAMESPACE', 'NAME', 'CLASS', 'ADDRESS', 'PROGRAMMED', 'AGE'],
      ['kserve', 'kserve-ingress-gateway', 'istio', '10.96.12.40', 'True', expect.any(String)],
    ]);
    const routes = await get('httproutes', '-n', 'llm');
    expect(rows(routes.stdout)).toEqual([
      ['NAME', 'HOSTNAMES', 'AGE'],
      ['qwen-kserve-route', '["llm-gateway.example.com"]', expect.any(String)],
    ]);
  });

  it('InferencePool at v1 (infpool) and at v1alpha2 (xinfpool), LeaderWorkerSet and KEDA ScaledObject', async () => {
    const v1 = await get(
      'infpool',
      '-n',
      'llm',
      '-o',
      'jsonpath={.items[0].apiVersion} {.items[0].spec.endpointPickerRef.name}',
    );
    expect(v1.stdout).toBe('inference.networking.k8s.io/v1 qwen-epp-service');
    const v1alpha2 = await get('xinfpool', '-n', 'llm', '-o', 'name');
    expect(v1alpha2.stdout.trim()).toBe('inferencepool.inference.networking.x-k8s.io/qwen-inference-pool');
    const lws = await get('lws', '-n', 'llm');
    expect(rows(lws.stdout)).toEqual([
      ['NAME', 'READY', 'DESIRED', 'UP-TO-DATE', 'AGE'],
      ['llama-dp-kserve-mn', '1', '2', '2', expect.any(String)],
    ]);
    const scaled = await get('so', '-n', 'llm');
    const [header, line] = rows(scaled.stdout);
    expect(header?.slice(0, 9)).toEqual([
      'NAME',
      'SCALETARGETKIND',
      'SCALETARGETNAME',
      'MIN',
      'MAX',
      'READY',
      'ACTIVE',
      'FALLBACK',
      'PAUSED',
    ]);
    expect(line?.slice(0, 8)).toEqual([
      'qwen-kserve-keda',
      'apps/v1.Deployment',
      'qwen-kserve',
      '1',
      '4',
      'True',
      'False',
      'False',
    ]);
    const resources = await kubectlWith(
      'kserve-020',
      'api-resources',
      '--api-group=leaderworkerset.x-k8s.io',
      '-o',
      'name',
    );
    expect(resources.stdout.trim()).toBe('leaderworkersets.leaderworkerset.x-k8s.io');
  });
});
