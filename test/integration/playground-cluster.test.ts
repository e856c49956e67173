/**
 * The playground's simulated cluster: the bundled scenarios merged into one cluster, each target
 * diagnosed (through the simulator and @kubernetes/client-node) to its scenario's root cause; then
 * the playground's controller playing KServe for the scripted transitions: a "break it" action
 * makes the diagnosis find what it broke, the fix makes it Ready again, and a rolled-back crashing
 * canary is healthy until traffic goes to it again.
 */
import { describe, expect, it, beforeAll, afterAll } from '@jest/globals';
import { diagnose } from '../../src/app/diagnoser.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { runBreakAction, breakActionsFor } from '../../src/playground/cluster/break-actions.js';
import { isvcRows } from '../../src/playground/cluster/cluster-view.js';
import { PlaygroundController } from '../../src/playground/cluster/playground-controller.js';
import { findIsvc } from '../../src/playground/cluster/related-objects.js';
import { bundledScenarioDirs, loadPlaygroundCluster, type PlaygroundCluster } from '../../src/playground/playground-cluster.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { SnapshotError } from '../../src/snapshot/load-snapshot.js';

let cluster: PlaygroundCluster;
let sim: RunningSimulator;
let controller: PlaygroundController;

beforeAll(async () => {
  cluster = await loadPlaygroundCluster(await bundledScenarioDirs());
  sim = await startSimulator({ snapshot: cluster.snapshot });
  controller = new PlaygroundController(sim.store, cluster.snapshot.logs, cluster.workloads, 0);
  controller.start();
});
afterAll(async () => {
  controller?.stop();
  await sim?.close();
});

const rootCause = async (namespace: string, name: string) => (await diagnose(kubeConfigForServer(sim.url), { namespace, name })).rootCause;
/** Applies an action and waits for the controller's rollout (the store publishes its writes). */
async function act(namespace: string, name: string, change: () => void): Promise<void> {
  const settled = new Promise<void>((resolve) => {
    const off = sim.store.subscribe((c) => {
      const status = (c.object.status ?? {}) as { observedGeneration?: number };
      if (c.object.kind === 'InferenceService' && c.object.metadata.name === name && status.observedGeneration === c.object.metadata.generation && c.previous?.metadata.generation === c.object.metadata.generation) {
        off();
        resolve();
      }
    });
  });
  change();
  await settled;
}

describe('the bundled playground cluster', () => {
  it('merges every scenario, each target in its own namespace, diagnosed to its root cause', async () => {
    expect(cluster.workloads.map((w) => `${w.namespace}/${w.name}`).sort()).toEqual(['ml-team/churn-model', 'ml-team/fraud-model', 'nlp/sentiment', 'recsys/ranker', 'vision/resnet']);
    const expected: Record<string, string | null> = { 'ml-team/churn-model': null, 'ml-team/fraud-model': 'OOM_KILLED', 'nlp/sentiment': 'PROBE_BLOCKED_BY_AUTH', 'recsys/ranker': 'CANARY_UNHEALTHY', 'vision/resnet': 'STORAGE_URI_NOT_FOUND' };
    for (const [key, code] of Object.entries(expected)) {
      const [namespace, name] = key.split('/') as [string, string];
      expect({ key, rootCause: await rootCause(namespace, name) }).toEqual({ key, rootCause: code });
    }
  });

  it('refuses two snapshots holding the same InferenceService', async () => {
    const dirs = await bundledScenarioDirs();
    await expect(loadPlaygroundCluster([dirs[0]!, dirs[0]!])).resolves.toBeDefined();
    const [first] = dirs;
    await expect(loadPlaygroundCluster([first!, 'test/scenarios/healthy-kserve', 'test/scenarios/storage-uri-not-found-kserve-new-names'])).rejects.toThrow(SnapshotError);
  });
});

describe("the playground's controller", () => {
  it('a missing storageUri is found by the diagnosis, and restoring it makes the service Ready', async () => {
    await act('ml-team', 'churn-model', () => expect(runBreakAction(sim.store, controller, 'ml-team', 'churn-model', 'missing-storage')).toBeNull());
    expect(await rootCause('ml-team', 'churn-model')).toBe('STORAGE_URI_NOT_FOUND');
    expect(breakActionsFor(sim.store, controller, 'ml-team', 'churn-model').map((a) => a.id)).toContain('restore-storage');
    await act('ml-team', 'churn-model', () => expect(runBreakAction(sim.store, controller, 'ml-team', 'churn-model', 'restore-storage')).toBeNull());
    expect(await rootCause('ml-team', 'churn-model')).toBeNull();
  });

  it('a lowered memory limit is OOMKilled; doubling it (the bot\'s fix) is enough', async () => {
    await act('ml-team', 'churn-model', () => expect(runBreakAction(sim.store, controller, 'ml-team', 'churn-model', 'lower-memory')).toBeNull());
    expect(await rootCause('ml-team', 'churn-model')).toBe('OOM_KILLED');
    await act('ml-team', 'churn-model', () => {
      const isvc = structuredClone(findIsvc(sim.store, 'ml-team', 'churn-model')!);
      (isvc.spec as any).predictor.model.resources.limits.memory = '768Mi';
      sim.store.upsert(isvc);
    });
    expect(await rootCause('ml-team', 'churn-model')).toBeNull();
    expect(runBreakAction(sim.store, controller, 'ml-team', 'churn-model', 'canary-traffic')).toMatch(/does not apply/);
  });

  // the crashing revision stays (not Ready, scaled to zero), so the diagnosis still names it; the
  // InferenceService itself is Ready, as KServe reports it once no traffic goes to the canary
  it('a rolled-back crashing canary leaves the service Ready; traffic to it again makes it unready', async () => {
    expect(breakActionsFor(sim.store, controller, 'recsys', 'ranker').map((a) => a.id)).not.toContain('canary-traffic');
    await act('recsys', 'ranker', () => {
      const isvc = structuredClone(findIsvc(sim.store, 'recsys', 'ranker')!);
      (isvc.spec as any).predictor.canaryTrafficPercent = 0;
      sim.store.upsert(isvc);
    });
    const ready = () => isvcRows(sim.store).find((r) => r.name === 'ranker')!.ready;
    expect(ready()).toBe('True');
    expect(sim.store.list('v1', 'Pod', 'recsys').map((p) => p.metadata.name)).toEqual([expect.stringContaining('ranker-predictor-00001')]);
    await act('recsys', 'ranker', () => expect(runBreakAction(sim.store, controller, 'recsys', 'ranker', 'canary-traffic')).toBeNull());
    expect(ready()).toBe('False');
    expect(await rootCause('recsys', 'ranker')).toBe('CANARY_UNHEALTHY');
  });
});
