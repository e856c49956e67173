/**
 * The playground's simulated cluster: the bundled scenarios merged into one cluster, each target
 * diagnosed (through the simulator and @kubernetes/client-node) to its scenario's root cause; then
 * the playground's controller playing KServe for the scripted transitions: a "break it" action
 * makes the diagnosis find what it broke, the fix makes it Ready again, and a rolled-back crashing
 * canary is healthy until traffic goes to it again.
 */
import { describe, expect, it, beforeAll, afterAll } from '@jest/globals';
import path from 'node:path';
import { diagnose } from '../../src/app/diagnoser.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { runBreakAction, breakActionsFor } from '../../src/playground/cluster/break-actions.js';
import { isvcRows } from '../../src/playground/cluster/cluster-view.js';
import { PlaygroundController } from '../../src/playground/cluster/playground-controller.js';
import { findIsvc } from '../../src/playground/cluster/related-objects.js';
import {
  bundledScenarioDirs,
  bundledScenariosDir,
  loadPlaygroundCluster,
  type PlaygroundCluster,
} from '../../src/playground/playground-cluster.js';
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

const rootCause = async (namespace: string, name: string) =>
  (await diagnose(kubeConfigForServer(sim.url), { namespace, name })).rootCause;
/** Applies an action and waits for the controller's rollout (the store publishes its writes). */
async function act(namespace: string, name: string, change: () => void): Promise<void> {
  const settled = new Promise<void>((resolve) => {
    const off = sim.store.subscribe((c) => {
      const status = (c.object.status ?? {}) as { observedGeneration?: number };
      if (
        (c.object.kind === 'InferenceService' || c.object.kind === 'LLMInferenceService') &&
        c.object.metadata.namespace === namespace &&
        c.object.metadata.name === name &&
        status.observedGeneration === c.object.metadata.generation &&
        c.previous?.metadata.generation === c.object.metadata.generation
      ) {
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
    expect(cluster.workloads.map((w) => `${w.namespace}/${w.name}`).sort()).toEqual([
      'llm/gemma-3-12b',
      'llm/qwen3-coder',
      'llm/qwq-32b',
      'ml-team/churn-model',
      'ml-team/fraud-model',
      'nlp/sentiment',
      'recsys/ranker',
      'vision/resnet',
    ]);
    const expected: Record<string, string | null> = {
      'llm/gemma-3-12b': 'LLM_ROUTE_NOT_ACCEPTED',
      'llm/qwen3-coder': 'MODEL_LOAD_FAILED',
      'llm/qwq-32b': 'GPU_OUT_OF_MEMORY',
      'ml-team/churn-model': null,
      'ml-team/fraud-model': 'OOM_KILLED',
      'nlp/sentiment': 'PROBE_BLOCKED_BY_AUTH',
      'recsys/ranker': 'CANARY_UNHEALTHY',
      'vision/resnet': 'STORAGE_URI_NOT_FOUND',
    };
    for (const [key, code] of Object.entries(expected)) {
      const [namespace, name] = key.split('/') as [string, string];
      expect({ key, rootCause: await rootCause(namespace, name) }).toEqual({ key, rootCause: code });
    }
  });

  it('lists the LLMInferenceServices beside the InferenceServices, each with its Ready condition', () => {
    const llm = isvcRows(sim.store)
      .filter((r) => r.namespace === 'llm')
      .map((r) => ({ kind: r.kind, name: r.name, ready: r.ready, reason: r.reason }));
    expect(llm.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { kind: 'LLMInferenceService', name: 'gemma-3-12b', ready: 'False', reason: 'HTTPRoutesNotReady' },
      { kind: 'LLMInferenceService', name: 'qwen3-coder', ready: 'False', reason: 'MinimumReplicasUnavailable' },
      { kind: 'InferenceService', name: 'qwq-32b', ready: 'False', reason: 'MinimumReplicasUnavailable' },
    ]);
  });

  it('refuses two snapshots holding the same LLMInferenceService', async () => {
    const kvCache = path.join(bundledScenariosDir(), 'qwen3-coder-kv-cache-too-small'); // llm/qwen3-coder
    await expect(
      loadPlaygroundCluster([kvCache, 'test/scenarios/llm-kv-cache-smaller-than-max-model-len']),
    ).rejects.toThrow(/LLMInferenceService llm\/qwen3-coder is also in/);
  });

  it('refuses two snapshots holding the same InferenceService', async () => {
    const dirs = await bundledScenarioDirs();
    await expect(loadPlaygroundCluster([dirs[0]!, dirs[0]!])).resolves.toBeDefined();
    const [first] = dirs;
    await expect(
      loadPlaygroundCluster([
        first!,
        'test/scenarios/healthy-kserve',
        'test/scenarios/storage-uri-not-found-kserve-new-names',
      ]),
    ).rejects.toThrow(SnapshotError);
  });

  it("refuses a snapshot whose access rules would reach another's services, and keeps one whose rules stay in its namespace", async () => {
    const oom = path.join(bundledScenariosDir(), 'fraud-model-oom'); // namespaces ml-team, knative-serving
    // denies get pods/log in namespace default only: the OOM service's diagnosis is unchanged
    const scoped = await loadPlaygroundCluster(['test/scenarios/forbidden-pod-logs', oom]);
    expect(scoped.snapshot.deny).toEqual([{ verb: 'get', resource: 'pods/log', namespace: 'default' }]);
    // denies reads in every namespace: it would put BOT_FORBIDDEN into the OOM service's diagnosis
    await expect(
      loadPlaygroundCluster(['test/scenarios/forbidden-reads-revision-missing-knative-forbidden', oom]),
    ).rejects.toThrow(/access\.yaml denies get services\.serving\.knative\.dev in every namespace/);
    // denies in a namespace another snapshot uses
    await expect(
      loadPlaygroundCluster([
        'test/scenarios/forbidden-pod-logs',
        'test/scenarios/cluster-knative-1-8-cluster-local-url',
      ]),
    ).rejects.toThrow(
      /denies get pods\/log in namespace default, which test\/scenarios\/cluster-knative-1-8-cluster-local-url uses too/,
    );
  });
});

describe("the playground's controller", () => {
  it('a missing storageUri is found by the diagnosis, and restoring it makes the service Ready', async () => {
    await act('ml-team', 'churn-model', () =>
      expect(runBreakAction(sim.store, controller, 'ml-team', 'churn-model', 'missing-storage')).toBeNull(),
    );
    expect(await rootCause('ml-team', 'churn-model')).toBe('STORAGE_URI_NOT_FOUND');
    expect(breakActionsFor(sim.store, controller, 'ml-team', 'churn-model').map((a) => a.id)).toContain(
      'restore-storage',
    );
    await act('ml-team', 'churn-model', () =>
      expect(runBreakAction(sim.store, controller, 'ml-team', 'churn-model', 'restore-storage')).toBeNull(),
    );
    expect(await rootCause('ml-team', 'churn-model')).toBeNull();
  });

  it("a lowered memory limit is OOMKilled; doubling it (the bot's fix) is enough", async () => {
    await act('ml-team', 'churn-model', () =>
      expect(runBreakAction(sim.store, controller, 'ml-team', 'churn-model', 'lower-memory')).toBeNull(),
    );
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
    expect(sim.store.list('v1', 'Pod', 'recsys').map((p) => p.metadata.name)).toEqual([
      expect.stringContaining('ranker-predictor-00001'),
    ]);
    await act('recsys', 'ranker', () =>
      expect(runBreakAction(sim.store, controller, 'recsys', 'ranker', 'canary-traffic')).toBeNull(),
    );
    expect(ready()).toBe('False');
    expect(await rootCause('recsys', 'ranker')).toBe('CANARY_UNHEALTHY');
  });

  it("an LLMInferenceService's max model len within its KV cache starts vLLM; without it the engine fails again", async () => {
    const ids = () => breakActionsFor(sim.store, controller, 'llm', 'qwen3-coder').map((a) => a.id);
    const row = () => isvcRows(sim.store).find((r) => r.namespace === 'llm' && r.name === 'qwen3-coder');
    expect(ids()).toEqual(['set-max-model-len']);
    await act('llm', 'qwen3-coder', () =>
      expect(runBreakAction(sim.store, controller, 'llm', 'qwen3-coder', 'set-max-model-len')).toBeNull(),
    );
    expect(row()?.ready).toBe('True');
    expect(cluster.snapshot.logs.get('llm/qwen3-coder-kserve-6d9f7b8c4-kq2vd/main')).toContain(
      'Using max model len 33792',
    );
    expect(await rootCause('llm', 'qwen3-coder')).toBeNull();
    expect(ids()).toEqual(['drop-max-model-len']);
    await act('llm', 'qwen3-coder', () =>
      expect(runBreakAction(sim.store, controller, 'llm', 'qwen3-coder', 'drop-max-model-len')).toBeNull(),
    );
    expect(row()?.ready).toBe('False');
    expect(await rootCause('llm', 'qwen3-coder')).toBe('MODEL_LOAD_FAILED');
    expect(ids()).toEqual(['set-max-model-len']);
  });

  it('a Standard-mode vLLM service spread over enough GPUs loads its weights; halving them runs out of GPU memory again', async () => {
    const ids = () => breakActionsFor(sim.store, controller, 'llm', 'qwq-32b').map((a) => a.id);
    type Model = { args: string[]; resources: { limits: Record<string, string> } };
    const model = () =>
      (findIsvc(sim.store, 'llm', 'qwq-32b')?.spec as { predictor: { model: Model } } | undefined)?.predictor.model;
    const gpus = () => model()?.resources.limits['nvidia.com/gpu'];
    expect(ids()).toContain('more-gpus');
    expect(ids()).not.toContain('fewer-gpus');
    await act('llm', 'qwq-32b', () =>
      expect(runBreakAction(sim.store, controller, 'llm', 'qwq-32b', 'more-gpus')).toBeNull(),
    );
    expect(gpus()).toBe('8');
    expect(model()?.args).toContain('--tensor-parallel-size=8');
    expect(await rootCause('llm', 'qwq-32b')).toBeNull();
    expect(ids()).toContain('fewer-gpus');
    expect(ids()).not.toContain('more-gpus');
    await act('llm', 'qwq-32b', () =>
      expect(runBreakAction(sim.store, controller, 'llm', 'qwq-32b', 'fewer-gpus')).toBeNull(),
    );
    expect(gpus()).toBe('4');
    expect(await rootCause('llm', 'qwq-32b')).toBe('GPU_OUT_OF_MEMORY');
  });

  it('an LLMInferenceService refused by its gateway is accepted through an own route without timeouts; the managed route is refused again', async () => {
    const ids = () => breakActionsFor(sim.store, controller, 'llm', 'gemma-3-12b').map((a) => a.id);
    const route = (name: string) => sim.store.get('gateway.networking.k8s.io/v1', 'HTTPRoute', 'llm', name);
    expect(ids()).toEqual(['own-route']);
    await act('llm', 'gemma-3-12b', () =>
      expect(runBreakAction(sim.store, controller, 'llm', 'gemma-3-12b', 'own-route')).toBeNull(),
    );
    expect(JSON.stringify(route('gemma-3-12b-route')?.spec)).not.toContain('timeouts');
    expect(route('gemma-3-12b-kserve-route')).toBeUndefined();
    expect(await rootCause('llm', 'gemma-3-12b')).toBeNull();
    expect(ids()).toEqual(['managed-route']);
    await act('llm', 'gemma-3-12b', () =>
      expect(runBreakAction(sim.store, controller, 'llm', 'gemma-3-12b', 'managed-route')).toBeNull(),
    );
    expect(route('gemma-3-12b-route')).toBeUndefined();
    expect(await rootCause('llm', 'gemma-3-12b')).toBe('LLM_ROUTE_NOT_ACCEPTED');
  });
});
