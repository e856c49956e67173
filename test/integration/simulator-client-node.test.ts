/**
 * The simulator through @kubernetes/client-node over real HTTP: reads, selectors, logs, errors as
 * Status objects, access.yaml denials, writes (merge / JSON patch, status subresource, optimistic
 * concurrency, dryRun), Leases and the latency option.
 */
import path from 'node:path';
import { CoordinationV1Api, PatchStrategy, setHeaderOptions, type V1Lease } from '@kubernetes/client-node';
import { kubeConfigForServer, makeKubeClients, type KubeClients } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

afterAll(removeTempDirs);

const FIXTURE = path.resolve('test/fixtures/simulator/basic');
const NS = 'kserve-test';
const POD = 'sklearn-iris-predictor-00001-deployment-5f7d4b9996-hzrnc';
const KSERVE = { group: 'serving.kserve.io', version: 'v1beta1', plural: 'inferenceservices' };
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

let sim: RunningSimulator;
let kube: KubeClients;

/** The HTTP status and parsed Status body of a failed client-node call. */
async function failure(call: Promise<unknown>): Promise<{ code: number; body: Record<string, unknown> }> {
  try {
    await call;
  } catch (error) {
    const e = error as { code?: number; body?: unknown };
    const body =
      typeof e.body === 'string'
        ? (JSON.parse(e.body) as Record<string, unknown>)
        : ((e.body ?? {}) as Record<string, unknown>);
    return { code: e.code ?? -1, body };
  }
  throw new Error('expected the call to fail');
}

beforeEach(async () => {
  sim = await startSimulator({ snapshot: await loadSnapshot(FIXTURE) });
  kube = makeKubeClients(kubeConfigForServer(sim.url));
});

afterEach(async () => {
  await sim.close();
});

describe('reads', () => {
  it('completes a snapshot pod as the kubelet writes it: conditions derived from its container statuses', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'healthy', namespace: 'default' },
      spec: {
        containers: [
          { name: 'kserve-container', image: 'sklearnserver:v0.11.1' },
          { name: 'queue-proxy', image: 'queue:1.10' },
        ],
      },
      status: {
        containerStatuses: [
          { name: 'kserve-container', ready: true, state: { running: {} } },
          { name: 'queue-proxy', ready: true, state: { running: {} } },
        ],
      },
    };
    const other = await startSimulator({
      snapshot: { dir: '/nonexistent', objects: [pod], logs: new Map(), deny: [] },
    });
    try {
      const read = await makeKubeClients(kubeConfigForServer(other.url)).core.readNamespacedPod({
        name: 'healthy',
        namespace: 'default',
      });
      expect(read.status?.phase).toBe('Running');
      expect(read.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual([
        'Initialized=True',
        'Ready=True',
        'ContainersReady=True',
        'PodScheduled=True',
      ]);
      expect(read.status?.containerStatuses?.map((c) => [c.name, c.restartCount, c.image])).toEqual([
        ['kserve-container', 0, 'sklearnserver:v0.11.1'],
        ['queue-proxy', 0, 'queue:1.10'],
      ]);
    } finally {
      await other.close();
    }
  });

  it('gets an InferenceService with server-filled metadata', async () => {
    const isvc = (await kube.custom.getNamespacedCustomObject({ ...KSERVE, namespace: NS, name: 'sklearn-iris' })) as {
      metadata: Record<string, unknown>;
      status: unknown;
    };
    expect(isvc.metadata).toMatchObject({
      name: 'sklearn-iris',
      namespace: NS,
      generation: 1,
      creationTimestamp: '2024-03-01T10:00:00Z',
    });
    expect(isvc.metadata.uid).toEqual(expect.any(String));
    expect(isvc.metadata.resourceVersion).toEqual(expect.any(String));
  });

  it('lists across namespaces and within one, with the store resourceVersion', async () => {
    const all = (await kube.custom.listClusterCustomObject(KSERVE)) as {
      items: { metadata: { name: string } }[];
      metadata: { resourceVersion: string };
    };
    expect(all.items.map((i) => i.metadata.name).sort()).toEqual(['flowers', 'sklearn-iris']);
    expect(all.metadata.resourceVersion).toBe(sim.store.resourceVersion);
    const pods = await kube.core.listPodForAllNamespaces();
    expect(pods.items).toHaveLength(2);
    const inNs = await kube.core.listNamespacedPod({ namespace: NS });
    expect(inNs.items.map((p) => p.metadata?.name)).toEqual([POD]);
  });

  it('filters by label and field selectors', async () => {
    const byLabel = await kube.core.listNamespacedPod({
      namespace: NS,
      labelSelector: 'serving.kserve.io/inferenceservice=sklearn-iris,component in (predictor)',
    });
    expect(byLabel.items).toHaveLength(1);
    expect((await kube.core.listNamespacedPod({ namespace: NS, labelSelector: '!component' })).items).toHaveLength(0);
    const teams = (await kube.custom.listClusterCustomObject({ ...KSERVE, labelSelector: 'team notin (ml)' })) as {
      items: { metadata: { name: string } }[];
    };
    expect(teams.items.map((i) => i.metadata.name)).toEqual(['flowers']);
    const events = await kube.core.listNamespacedEvent({
      namespace: NS,
      fieldSelector: `involvedObject.name=${POD},involvedObject.kind=Pod`,
    });
    expect(events.items.map((e) => e.reason)).toEqual(['BackOff']);
    expect((await kube.core.listPodForAllNamespaces({ fieldSelector: 'status.phase=Running' })).items).toHaveLength(1);
  });

  it('serves cluster-scoped and unknown kinds', async () => {
    const kinds = (await kube.custom.listClusterCustomObject({
      group: 'example.com',
      version: 'v1',
      plural: 'modelpolicies',
    })) as { items: unknown[] };
    expect(kinds.items).toHaveLength(1);
    const crsv = await kube.custom.listClusterCustomObject({
      group: 'serving.kserve.io',
      version: 'v1alpha1',
      plural: 'clusterservingruntimes',
    });
    expect((crsv as { items: unknown[] }).items).toEqual([]);
  });

  it('answers a missing object with a NotFound Status', async () => {
    const { code, body } = await failure(
      kube.custom.getNamespacedCustomObject({ ...KSERVE, namespace: NS, name: 'nope' }),
    );
    expect(code).toBe(404);
    expect(body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: 'inferenceservices.serving.kserve.io "nope" not found',
      details: { name: 'nope', group: 'serving.kserve.io', kind: 'inferenceservices' },
    });
    expect((await failure(kube.core.readNamespacedConfigMap({ namespace: 'kserve', name: 'nope' }))).code).toBe(404);
    // a kind that is never served
    expect(
      (await failure(kube.custom.listClusterCustomObject({ group: 'nope.io', version: 'v1', plural: 'things' }))).code,
    ).toBe(404);
  });
});

describe('pod logs', () => {
  it('reads a container log with tailLines and limitBytes', async () => {
    const log = await kube.core.readNamespacedPodLog({ namespace: NS, name: POD, container: 'storage-initializer' });
    expect(log).toContain('RuntimeError: Failed to fetch model');
    const tail = await kube.core.readNamespacedPodLog({
      namespace: NS,
      name: POD,
      container: 'storage-initializer',
      tailLines: 1,
    });
    expect(tail).toBe(
      'RuntimeError: Failed to fetch model. The path or model gs://kfserving-examples/models/sklearn/1.0/model-missing does not exist.\n',
    );
    const limited = await kube.core.readNamespacedPodLog({
      namespace: NS,
      name: POD,
      container: 'storage-initializer',
      limitBytes: 10,
    });
    expect(limited).toBe('INFO:root:');
  });

  it('reads the previous instance, and answers 400 when there is none', async () => {
    const previous = await kube.core.readNamespacedPodLog({
      namespace: NS,
      name: POD,
      container: 'storage-initializer',
      previous: true,
    });
    expect(previous).toContain('previous attempt');
    const none = await failure(
      kube.core.readNamespacedPodLog({ namespace: NS, name: POD, container: 'kserve-container', previous: true }),
    );
    expect(none.code).toBe(400);
    expect(none.body.message).toBe(`previous terminated container "kserve-container" in pod "${POD}" not found`);
  });

  it('answers an empty log for a container that never wrote one', async () => {
    expect(await kube.core.readNamespacedPodLog({ namespace: NS, name: POD, container: 'kserve-container' })).toBe('');
  });

  it('needs a container name when the pod has several, unless one is annotated as default', async () => {
    const missing = await failure(kube.core.readNamespacedPodLog({ namespace: NS, name: POD }));
    expect(missing.code).toBe(400);
    expect(missing.body.message).toBe(
      `a container name must be specified for pod ${POD}, choose one of: [kserve-container queue-proxy] or one of the init containers: [storage-initializer]`,
    );
    const annotated = await kube.core.readNamespacedPodLog({
      namespace: 'default',
      name: 'flowers-predictor-default-7b9c-abcde',
    });
    expect(annotated).toContain('tensorflow serving started');
    expect(
      (await failure(kube.core.readNamespacedPodLog({ namespace: NS, name: 'no-such-pod', container: 'x' }))).code,
    ).toBe(404);
  });
});

describe('access rules', () => {
  it('answers denied requests with a Forbidden Status like RBAC, and records them', async () => {
    const denied = await failure(
      kube.custom.listClusterCustomObject({
        group: 'rbac.istio.io',
        version: 'v1alpha1',
        plural: 'clusterrbacconfigs',
      }),
    );
    expect(denied.code).toBe(403);
    expect(denied.body).toMatchObject({
      reason: 'Forbidden',
      message:
        'clusterrbacconfigs.rbac.istio.io is forbidden: User "system:serviceaccount:isvc-doctor:isvc-doctor" cannot list resource "clusterrbacconfigs" in API group "rbac.istio.io" at the cluster scope',
    });
    // get is still allowed: rules match the exact verb
    await kube.custom.getClusterCustomObject({
      group: 'rbac.istio.io',
      version: 'v1alpha1',
      plural: 'clusterrbacconfigs',
      name: 'default',
    });
    const vs = await failure(
      kube.custom.listNamespacedCustomObject({
        group: 'networking.istio.io',
        version: 'v1alpha3',
        namespace: NS,
        plural: 'virtualservices',
      }),
    );
    expect(vs.code).toBe(403);
    await kube.custom.listNamespacedCustomObject({
      group: 'networking.istio.io',
      version: 'v1alpha3',
      namespace: 'default',
      plural: 'virtualservices',
    });
    const secret = await failure(kube.core.readNamespacedSecret({ namespace: 'default', name: 'x' }));
    expect(secret.body.message).toBe(
      'secrets "x" is forbidden: User "system:serviceaccount:isvc-doctor:isvc-doctor" cannot get resource "secrets" in API group "" in the namespace "default"',
    );
    expect(sim.requests.filter((r) => r.status === 403).map((r) => `${r.verb} ${r.resource}`)).toEqual([
      'list clusterrbacconfigs',
      'list virtualservices',
      'get secrets',
    ]);
  });

  it('denies pod logs only in the namespace of the rule', async () => {
    sim.store.upsert({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'restricted' },
      spec: { containers: [{ name: 'c' }] },
    });
    const denied = await failure(
      kube.core.readNamespacedPodLog({ namespace: 'restricted', name: 'p', container: 'c' }),
    );
    expect(denied.code).toBe(403);
    expect(denied.body.message).toContain(
      'cannot get resource "pods/log" in API group "" in the namespace "restricted"',
    );
    await kube.core.readNamespacedPod({ namespace: 'restricted', name: 'p' });
  });
});

describe('writes', () => {
  it('merge-patches a custom object: spec bumps generation, exactly one PATCH recorded', async () => {
    const patched = (await kube.custom.patchNamespacedCustomObject(
      {
        ...KSERVE,
        namespace: NS,
        name: 'sklearn-iris',
        body: { spec: { predictor: { model: { storageUri: 'gs://fixed' } } } },
      },
      merge,
    )) as { spec: { predictor: { model: Record<string, unknown> } }; metadata: { generation: number } };
    expect(patched.spec.predictor.model).toEqual({ modelFormat: { name: 'sklearn' }, storageUri: 'gs://fixed' });
    expect(patched.metadata.generation).toBe(2);
    expect(sim.store.get('serving.kserve.io/v1beta1', 'InferenceService', NS, 'sklearn-iris')?.spec).toEqual(
      patched.spec,
    );
    expect(sim.requests.filter((r) => r.method === 'PATCH')).toEqual([
      expect.objectContaining({
        verb: 'patch',
        group: 'serving.kserve.io',
        version: 'v1beta1',
        resource: 'inferenceservices',
        namespace: NS,
        name: 'sklearn-iris',
        status: 200,
      }),
    ]);
  });

  it('JSON-patches a custom object, and a failed test op is 422', async () => {
    const patched = (await kube.custom.patchNamespacedCustomObject(
      {
        ...KSERVE,
        namespace: NS,
        name: 'sklearn-iris',
        body: [{ op: 'add', path: '/metadata/annotations', value: { fixed: 'yes' } }],
      },
      jsonPatch,
    )) as { metadata: { annotations: Record<string, string>; generation: number } };
    expect(patched.metadata.annotations).toEqual({ fixed: 'yes' });
    expect(patched.metadata.generation).toBe(1);
    const failed = await failure(
      kube.custom.patchNamespacedCustomObject(
        {
          ...KSERVE,
          namespace: NS,
          name: 'sklearn-iris',
          body: [{ op: 'test', path: '/spec/predictor/model/storageUri', value: 'nope' }],
        },
        jsonPatch,
      ),
    );
    expect(failed.code).toBe(422);
  });

  it('patches only status through the status subresource, and ignores status on the main resource', async () => {
    const ready = { conditions: [{ type: 'Ready', status: 'True' }] };
    const viaStatus = (await kube.custom.patchNamespacedCustomObjectStatus(
      { ...KSERVE, namespace: NS, name: 'sklearn-iris', body: { status: ready, spec: { ignored: true } } },
      merge,
    )) as { status: unknown; spec: Record<string, unknown>; metadata: { generation: number } };
    expect(viaStatus.status).toMatchObject(ready);
    expect(viaStatus.spec.ignored).toBeUndefined();
    expect(viaStatus.metadata.generation).toBe(1);
    const viaMain = (await kube.custom.patchNamespacedCustomObject(
      { ...KSERVE, namespace: NS, name: 'sklearn-iris', body: { status: { conditions: [] } } },
      merge,
    )) as { status: unknown };
    expect(viaMain.status).toMatchObject(ready);
    const podStatus = await kube.core.patchNamespacedPodStatus(
      { namespace: NS, name: POD, body: [{ op: 'replace', path: '/status/phase', value: 'Failed' }] },
      jsonPatch,
    );
    expect(podStatus.status?.phase).toBe('Failed');
  });

  it('refuses a PUT with a stale resourceVersion (409 Conflict)', async () => {
    const current = await kube.core.readNamespacedConfigMap({ namespace: 'kserve', name: 'inferenceservice-config' });
    const updated = await kube.core.replaceNamespacedConfigMap({
      namespace: 'kserve',
      name: 'inferenceservice-config',
      body: { ...current, data: { a: '1' } },
    });
    expect(Number(updated.metadata?.resourceVersion)).toBeGreaterThan(Number(current.metadata?.resourceVersion));
    const stale = await failure(
      kube.core.replaceNamespacedConfigMap({
        namespace: 'kserve',
        name: 'inferenceservice-config',
        body: { ...current, data: { b: '2' } },
      }),
    );
    expect(stale.code).toBe(409);
    expect(stale.body).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "inferenceservice-config": the object has been modified; please apply your changes to the latest version and try again',
    });
    const renamed = await failure(
      kube.core.replaceNamespacedConfigMap({
        namespace: 'kserve',
        name: 'inferenceservice-config',
        body: { ...updated, metadata: { ...updated.metadata, name: 'other' } },
      }),
    );
    expect(renamed.code).toBe(422);
  });

  it('stores nothing on dryRun=All, but answers and records the request', async () => {
    const before = sim.store.resourceVersion;
    const answer = (await kube.custom.patchNamespacedCustomObject(
      {
        ...KSERVE,
        namespace: NS,
        name: 'sklearn-iris',
        dryRun: 'All',
        body: { spec: { predictor: { minReplicas: 1 } } },
      },
      merge,
    )) as { spec: { predictor: { minReplicas: number } } };
    expect(answer.spec.predictor.minReplicas).toBe(1);
    await kube.core.deleteNamespacedPod({ namespace: NS, name: POD, dryRun: 'All' });
    await kube.core.createNamespacedConfigMap({
      namespace: 'default',
      dryRun: 'All',
      body: { metadata: { name: 'new' } },
    });
    expect(sim.store.resourceVersion).toBe(before);
    expect(sim.store.get('v1', 'Pod', NS, POD)).toBeDefined();
    expect(sim.store.get('v1', 'ConfigMap', 'default', 'new')).toBeUndefined();
    expect(sim.requests.filter((r) => r.query.dryRun === 'All').map((r) => r.verb)).toEqual([
      'patch',
      'delete',
      'create',
    ]);
  });

  it('creates (409 AlreadyExists on a second create) and deletes', async () => {
    const created = await kube.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'new' }, data: { k: 'v' } },
    });
    expect(created.metadata).toMatchObject({ name: 'new', namespace: 'default', generation: 1 });
    expect(created.metadata?.uid).toEqual(expect.any(String));
    const again = await failure(
      kube.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'new' } } }),
    );
    expect(again).toMatchObject({
      code: 409,
      body: { reason: 'AlreadyExists', message: 'configmaps "new" already exists' },
    });
    await kube.core.deleteNamespacedConfigMap({ namespace: 'default', name: 'new' });
    expect((await failure(kube.core.readNamespacedConfigMap({ namespace: 'default', name: 'new' }))).code).toBe(404);
    expect((await failure(kube.core.deleteNamespacedConfigMap({ namespace: 'default', name: 'new' }))).code).toBe(404);
  });

  it('runs a Lease election: create, renew, conflict on a stale update', async () => {
    const coordination = kube.kubeConfig.makeApiClient(CoordinationV1Api);
    const lease: V1Lease = {
      metadata: { name: 'isvc-doctor-watcher', namespace: 'isvc-doctor' },
      spec: { holderIdentity: 'a', leaseDurationSeconds: 15 },
    };
    const created = await coordination.createNamespacedLease({ namespace: 'isvc-doctor', body: lease });
    const renewed = await coordination.replaceNamespacedLease({
      namespace: 'isvc-doctor',
      name: 'isvc-doctor-watcher',
      body: { ...created, spec: { ...created.spec, renewTime: new Date() } },
    });
    expect(renewed.spec?.renewTime).toBeDefined();
    expect(Number(renewed.metadata?.resourceVersion)).toBeGreaterThan(Number(created.metadata?.resourceVersion));
    const stolen = await failure(
      coordination.replaceNamespacedLease({
        namespace: 'isvc-doctor',
        name: 'isvc-doctor-watcher',
        body: { ...created, spec: { ...created.spec, holderIdentity: 'b' } },
      }),
    );
    expect(stolen.code).toBe(409);
    expect(
      (await coordination.readNamespacedLease({ namespace: 'isvc-doctor', name: 'isvc-doctor-watcher' })).spec
        ?.holderIdentity,
    ).toBe('a');
  });
});

describe('robustness and options', () => {
  it('answers bad input with Status objects and keeps serving', async () => {
    const post = (p: string, body: string, type = 'application/json') =>
      fetch(`${sim.url}${p}`, { method: 'POST', body, headers: { 'Content-Type': type } });
    const malformed = await post('/api/v1/namespaces/default/configmaps', '{not json');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect((await post('/api/v1/namespaces/default/configmaps', '[1,2]')).status).toBe(422);
    const unknown = await fetch(`${sim.url}/nope/at/all`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    expect((await fetch(`${sim.url}/api/v1/namespaces/default/pods/x`, { method: 'POST' })).status).toBe(405);
    const patch = await fetch(`${sim.url}/api/v1/namespaces/kserve/configmaps/inferenceservice-config`, {
      method: 'PATCH',
      body: '{}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(patch.status).toBe(415);
    expect((await fetch(`${sim.url}/api/v1/pods?labelSelector=${encodeURIComponent('a in (b')}`)).status).toBe(400);
    expect((await kube.core.listNamespacedPod({ namespace: NS })).items).toHaveLength(1);
  });

  it('serves discovery documents', async () => {
    const json = async (p: string) => (await fetch(`${sim.url}${p}`)).json() as Promise<Record<string, unknown>>;
    expect(await json('/version')).toMatchObject({ gitVersion: 'v1.29.0' });
    expect(await json('/api')).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const groups = (await json('/apis')) as { groups: { name: string; preferredVersion: { version: string } }[] };
    expect(groups.groups.map((g) => g.name)).toEqual(
      expect.arrayContaining([
        'serving.kserve.io',
        'serving.kubeflow.org',
        'serving.knative.dev',
        'rbac.istio.io',
        'example.com',
      ]),
    );
    expect(groups.groups.find((g) => g.name === 'serving.kubeflow.org')?.preferredVersion.version).toBe('v1beta1');
    const kserve = (await json('/apis/serving.kserve.io/v1beta1')) as {
      resources: { name: string; shortNames?: string[] }[];
    };
    expect(kserve.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'inferenceservices', shortNames: ['isvc'] }),
        expect.objectContaining({ name: 'inferenceservices/status' }),
      ]),
    );
    const core = (await json('/api/v1')) as { resources: { name: string }[] };
    expect(core.resources.map((r) => r.name)).toEqual(
      expect.arrayContaining(['pods', 'pods/log', 'events', 'namespaces', 'nodes']),
    );
    expect((await fetch(`${sim.url}/apis/nope.io/v1`)).status).toBe(404);
  });

  it('delays every response by the latency option', async () => {
    const slow = await startSimulator({ snapshot: await loadSnapshot(FIXTURE), latencyMs: 150 });
    try {
      const slowKube = makeKubeClients(kubeConfigForServer(slow.url));
      const started = Date.now();
      await slowKube.core.listNamespacedPod({ namespace: NS });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await slow.close();
    }
  });

  it('writes a kubeconfig that client-node can load', async () => {
    const file = path.join(tempDir('kubeconfig-'), 'config');
    await sim.writeKubeconfig(file);
    const { loadKubeConfig } = await import('../../src/kube/client.js');
    const fromFile = makeKubeClients(loadKubeConfig({ file }));
    expect((await fromFile.core.listNamespacedPod({ namespace: NS })).items).toHaveLength(1);
  });
});
