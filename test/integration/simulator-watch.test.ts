/**
 * Watches against the simulator through client-node's Watch and informers: initial ADDED events,
 * MODIFIED after store changes and HTTP patches, replay from a resourceVersion, 410 Gone after
 * compaction (informers re-list), selectors and timeoutSeconds.
 */
import path from 'node:path';
import { makeInformer, PatchStrategy, setHeaderOptions, Watch, type KubernetesObject } from '@kubernetes/client-node';
import { kubeConfigForServer, makeKubeClients, type KubeClients } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { until } from '../support/until.js';

const FIXTURE = path.resolve('test/fixtures/simulator/basic');
const NS = 'kserve-test';
const KSERVE = { group: 'serving.kserve.io', version: 'v1beta1', plural: 'inferenceservices' };
const ISVC_PATH = `/apis/serving.kserve.io/v1beta1/namespaces/${NS}/inferenceservices`;

interface Seen {
  type: string;
  name?: string;
  rv?: string;
  code?: number;
}

let sim: RunningSimulator;
let kube: KubeClients;

beforeEach(async () => {
  sim = await startSimulator({ snapshot: await loadSnapshot(FIXTURE) });
  kube = makeKubeClients(kubeConfigForServer(sim.url));
});

afterEach(async () => {
  await sim.close();
});

function isvc(name: string, storageUri: string): Record<string, unknown> {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, namespace: NS },
    spec: { predictor: { model: { storageUri } } },
  };
}

/** Starts a raw client-node Watch, collecting its events; resolves once the request is under way. */
async function watch(pathName: string, query: Record<string, string | number | boolean | undefined>) {
  const seen: Seen[] = [];
  let done: unknown = 'open';
  const controller = await new Watch(kube.kubeConfig).watch(
    pathName,
    query,
    (type, object: { metadata?: { name?: string; resourceVersion?: string }; code?: number }) =>
      seen.push({
        type,
        name: object.metadata?.name,
        rv: object.metadata?.resourceVersion,
        ...(object.code ? { code: object.code } : {}),
      }),
    (err) => {
      done = err;
    },
  );
  return { seen, controller, done: () => done };
}

describe('watch', () => {
  it('starts with ADDED for current objects, then streams changes from the store and over HTTP', async () => {
    const w = await watch(ISVC_PATH, {});
    await until(() => w.seen.length === 1, 'the initial ADDED');
    expect(w.seen[0]).toMatchObject({ type: 'ADDED', name: 'sklearn-iris' });
    sim.store.upsert(isvc('new-one', 'gs://a'));
    sim.store.upsert(isvc('new-one', 'gs://b'));
    await kube.custom.patchNamespacedCustomObject(
      { ...KSERVE, namespace: NS, name: 'sklearn-iris', body: { metadata: { labels: { x: 'y' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    sim.store.delete('serving.kserve.io/v1beta1', 'InferenceService', NS, 'new-one');
    sim.store.upsert({ ...isvc('elsewhere', 'gs://c'), metadata: { name: 'elsewhere', namespace: 'default' } });
    await until(() => w.seen.length === 5, 'five events');
    expect(w.seen.map((e) => `${e.type} ${e.name}`)).toEqual([
      'ADDED sklearn-iris',
      'ADDED new-one',
      'MODIFIED new-one',
      'MODIFIED sklearn-iris',
      'DELETED new-one',
    ]);
    expect(sim.requests.filter((r) => r.verb === 'watch')).toHaveLength(1);
    w.controller.abort();
  });

  it('replays the history after a resourceVersion', async () => {
    const from = sim.store.resourceVersion;
    sim.store.upsert(isvc('a', 'gs://1'));
    sim.store.upsert(isvc('a', 'gs://2'));
    const w = await watch(ISVC_PATH, { resourceVersion: from });
    await until(() => w.seen.length === 2, 'the replay');
    expect(w.seen.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
    expect(w.seen[1]!.rv).toBe(sim.store.resourceVersion);
    w.controller.abort();
  });

  it('answers a compacted resourceVersion with an ERROR 410 event and ends the stream', async () => {
    const from = sim.store.resourceVersion;
    sim.store.upsert(isvc('a', 'gs://1'));
    sim.store.compact();
    const w = await watch(ISVC_PATH, { resourceVersion: String(Number(from) - 1) });
    await until(() => w.done() !== 'open', 'the end of the stream');
    expect(w.seen).toEqual([{ type: 'ERROR', code: 410 }]);
    expect(w.done()).toBeNull();
  });

  it('applies selectors: objects leaving the selection arrive as DELETED', async () => {
    const w = await watch(`/api/v1/pods`, {
      labelSelector: 'component=predictor',
      resourceVersion: sim.store.resourceVersion,
    });
    const pod = sim.store.get('v1', 'Pod', 'default', 'flowers-predictor-default-7b9c-abcde')!;
    sim.store.upsert({ ...pod, metadata: { ...pod.metadata, labels: { component: 'other' } } });
    sim.store.upsert({ ...pod, metadata: { ...pod.metadata, labels: { component: 'predictor' } } });
    await until(() => w.seen.length === 2, 'two events');
    expect(w.seen.map((e) => e.type)).toEqual(['DELETED', 'ADDED']);
    w.controller.abort();
  });

  it('ends after timeoutSeconds and when the simulator closes', async () => {
    const timed = await watch(ISVC_PATH, { timeoutSeconds: 1, resourceVersion: sim.store.resourceVersion });
    await until(() => timed.done() !== 'open', 'the timeout', 20_000);
    const open = await watch(ISVC_PATH, { resourceVersion: sim.store.resourceVersion });
    await until(() => sim.requests.filter((r) => r.verb === 'watch').length === 2, 'the second watch');
    await sim.close();
    await until(() => open.done() !== 'open', 'the end on close');
  });
});

describe('informer', () => {
  it('sees ADDED then MODIFIED after store.upsert and after a PATCH over HTTP', async () => {
    const informer = makeInformer<KubernetesObject>(
      kube.kubeConfig,
      ISVC_PATH,
      () => kube.custom.listNamespacedCustomObject({ ...KSERVE, namespace: NS }) as never,
    );
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) =>
      seen.push(
        `update ${o.metadata?.name} ${(o as { spec?: { predictor?: { model?: { storageUri?: string } } } }).spec?.predictor?.model?.storageUri}`,
      ),
    );
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    await until(() => sim.requests.some((r) => r.verb === 'watch'), 'the informer watch');
    sim.store.upsert(isvc('sklearn-iris', 'gs://from-store'));
    await until(() => seen.length === 2, 'the store update');
    await kube.custom.patchNamespacedCustomObject(
      {
        ...KSERVE,
        namespace: NS,
        name: 'sklearn-iris',
        body: { spec: { predictor: { model: { storageUri: 'gs://from-patch' } } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await until(() => seen.length === 3, 'the patch');
    expect(seen).toEqual([
      'add sklearn-iris',
      'update sklearn-iris gs://from-store',
      'update sklearn-iris gs://from-patch',
    ]);
    expect(errors).toEqual([]);
    await informer.stop();
  });

  it('re-lists after a 410 Gone and catches up', async () => {
    const informer = makeInformer<KubernetesObject>(
      kube.kubeConfig,
      ISVC_PATH,
      () => kube.custom.listNamespacedCustomObject({ ...KSERVE, namespace: NS }) as never,
    );
    const seen: string[] = [];
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    await until(() => sim.requests.some((r) => r.verb === 'watch'), 'the informer watch');
    const lists = () => sim.requests.filter((r) => r.verb === 'list').length;
    expect(lists()).toBe(1);
    // The stream ends; before the informer reconnects, objects change and the history is compacted.
    sim.endWatches();
    sim.store.upsert(isvc('added-meanwhile', 'gs://x'));
    sim.store.delete('serving.kserve.io/v1beta1', 'InferenceService', NS, 'sklearn-iris');
    sim.store.compact();
    await until(() => lists() === 2, 'the re-list');
    await until(() => seen.length === 3, 'the catch-up');
    expect(seen).toEqual(['add sklearn-iris', 'delete sklearn-iris', 'add added-meanwhile']);
    // the first watch, the one answered 410 Gone, the one after the re-list
    await until(() => sim.requests.filter((r) => r.verb === 'watch').length === 3, 'the watch after the re-list');
    expect(informer.list().map((o) => o.metadata?.name)).toEqual(['added-meanwhile']);
    expect(errors).toEqual([]);
    await informer.stop();
  });
});
