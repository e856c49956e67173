/**
 * IsvcWatcher against the simulator: initial list over every served version, Ready flips by PATCH on
 * the status subresource, a watch dropped by endWatches() resumed from its resourceVersion (no
 * re-list), 410 Gone after compaction (re-list), the API server going away and coming back
 * (client-node's informer stops on that error; ours restarts it), duplicates across versions merged.
 */
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { kubeConfigForServer, makeKubeClients } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import type { Snapshot } from '../../src/snapshot/load-snapshot.js';
import type { IsvcState } from '../../src/watcher/isvc-state.js';
import { IsvcWatcher } from '../../src/watcher/isvc-watcher.js';
import { until } from '../support/until.js';

function isvc(
  name: string,
  ready: boolean,
  apiVersion = 'serving.kserve.io/v1beta1',
  namespace = 'default',
): Record<string, unknown> {
  return {
    apiVersion,
    kind: 'InferenceService',
    metadata: { name, namespace },
    spec: { predictor: { sklearn: { storageUri: 'gs://m' } } },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          reason: ready ? undefined : 'RevisionMissing',
          lastTransitionTime: new Date().toISOString(),
        },
      ],
    },
  };
}

/** A cluster migrating from KFServing to KServe: it serves all three InferenceService versions. */
const snapshot = (objects: Record<string, unknown>[]): Snapshot => ({
  dir: '/nonexistent',
  objects,
  logs: new Map(),
  deny: [],
  cluster: { kserve: '0.11', kfserving: '0.6' },
});

let sim: RunningSimulator;
let watcher: IsvcWatcher | null = null;
const changes: string[] = [];

async function startWatcher(namespaces: string[] | null = ['default', 'team-a']) {
  watcher = new IsvcWatcher({
    kubeConfig: kubeConfigForServer(sim.url),
    namespaces,
    initialBackoffMs: 50,
    onChange: (s: IsvcState) => changes.push(`${s.key} ${s.ready ? 'ready' : 'unready'} ${s.apiVersion}`),
    onDelete: (s: IsvcState) => changes.push(`${s.key} deleted`),
  });
  await watcher.start();
  return watcher;
}

beforeEach(async () => {
  changes.length = 0;
  sim = await startSimulator({
    snapshot: snapshot([
      isvc('a', true),
      isvc('b', false),
      isvc('c', true, 'serving.kubeflow.org/v1alpha2', 'team-a'),
      isvc('x', false, 'serving.kserve.io/v1beta1', 'elsewhere'),
    ]),
  });
});
afterEach(async () => {
  await watcher?.stop();
  watcher = null;
  await sim.close();
});

const lists = () => sim.requests.filter((r) => r.verb === 'list' && r.resource === 'inferenceservices').length;
const watches = () => sim.requests.filter((r) => r.verb === 'watch' && r.resource === 'inferenceservices').length;

it('lists every served version in the configured namespaces, then sees a Ready flip through PATCH /status', async () => {
  const w = await startWatcher();
  expect([...w.all()].map((s) => `${s.key} ${s.ready}`).sort()).toEqual([
    'default/a true',
    'default/b false',
    'team-a/c true',
  ]);
  // 3 versions × 2 namespaces
  expect(lists()).toBe(6);
  const kube = makeKubeClients(kubeConfigForServer(sim.url));
  await kube.custom.patchNamespacedCustomObjectStatus(
    {
      group: 'serving.kserve.io',
      version: 'v1beta1',
      namespace: 'default',
      plural: 'inferenceservices',
      name: 'a',
      body: { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'RevisionMissing' }] } },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  await until(() => w.get('default/a')?.ready === false, 'the flip');
  expect(changes.at(-1)).toBe('default/a unready serving.kserve.io/v1beta1');
});

it('resumes a watch dropped by endWatches() without re-listing, and re-lists after 410 Gone', async () => {
  const w = await startWatcher(['default']);
  const listsBefore = lists();
  await until(() => watches() >= 3, 'the watches');
  sim.endWatches();
  sim.store.upsert(isvc('d', false));
  await until(() => w.get('default/d') !== undefined, 'the change after the reconnect');
  expect(lists()).toBe(listsBefore);
  // Now the watch ends, things change and the history is compacted: 410 → re-list.
  sim.endWatches();
  sim.store.upsert(isvc('e', false));
  sim.store.delete('serving.kserve.io/v1beta1', 'InferenceService', 'default', 'a');
  sim.store.compact();
  await until(() => w.get('default/e') !== undefined && w.get('default/a') === undefined, 'the catch-up');
  expect(lists()).toBeGreaterThan(listsBefore);
  expect(changes).toContain('default/a deleted');
  expect(w.restarts).toBe(0);
});

it('restarts the informers after the API server went away (connection refused) and came back', async () => {
  const w = await startWatcher(['default']);
  const port = sim.port;
  const lastVersion = Number(sim.store.resourceVersion);
  await sim.close();
  await new Promise((r) => setTimeout(r, 300));
  sim = await startSimulator({ snapshot: snapshot([]), port });
  // etcd's revisions carry on across an API server restart; the fresh simulator's start at 1.
  for (let i = 0; Number(sim.store.resourceVersion) <= lastVersion; i += 1)
    sim.store.upsert({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `filler-${i}`, namespace: 'default' } });
  for (const o of [isvc('a', false), isvc('b', false), isvc('new', false)]) sim.store.upsert(o);
  await until(() => w.get('default/new') !== undefined && w.get('default/a')?.ready === false, 'the restart', 15_000);
  expect(w.restarts).toBeGreaterThan(0);
});

it('watches every namespace with one informer per version when namespaces is null, and merges one object seen under two versions', async () => {
  sim.store.upsert(isvc('c', false, 'serving.kubeflow.org/v1beta1', 'team-a'));
  const w = await startWatcher(null);
  expect(lists()).toBe(3);
  expect(w.get('elsewhere/x')?.ready).toBe(false);
  // one object, read under v1beta1 and v1alpha2 (converted): the preferred v1beta1 reading wins
  expect(w.get('team-a/c')).toMatchObject({ ready: false, apiVersion: 'serving.kubeflow.org/v1beta1' });
  sim.store.delete('serving.kubeflow.org/v1beta1', 'InferenceService', 'team-a', 'c');
  await until(() => w.get('team-a/c') === undefined, 'the deletion seen under both versions');
  expect(changes.filter((c) => c === 'team-a/c deleted')).toHaveLength(1);
});
