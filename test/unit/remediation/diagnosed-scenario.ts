/**
 * A scenario served by the simulator, diagnosed through client-node, and the context an action plans
 * with against it: what an action's unit test needs to compare the report's offer with its plan.
 */
import path from 'node:path';
import { afterAll } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import type { KubeObject } from '../../../src/kube/schemas.js';
import { kubeConfigForServer, makeKubeClients } from '../../../src/kube/client.js';
import { ClusterWriter } from '../../../src/kube/cluster-writer.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

const sims: RunningSimulator[] = [];
afterAll(async () => {
  for (const s of sims.splice(0)) await s.close();
});

/** `edit` changes the InferenceService in the simulator before the diagnosis reads it. */
export async function diagnosedScenario(
  name: string,
  target: { namespace: string; name: string },
  edit?: (isvc: KubeObject) => void,
) {
  const sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios', name)) });
  sims.push(sim);
  if (edit) {
    const isvc = sim.store.get('serving.kserve.io/v1beta1', 'InferenceService', target.namespace, target.name)!;
    edit(isvc);
    sim.store.upsert(isvc);
  }
  const kubeConfig = kubeConfigForServer(sim.url);
  const report = await diagnose(kubeConfig, target);
  const ctx = {
    writer: new ClusterWriter(makeKubeClients(kubeConfig)),
    target,
    settings: { maxMemoryBytes: 16 * 1024 ** 3, knativeNamespace: 'knative-serving' },
  };
  return { sim, report, ctx };
}

/** The dryRun query of each PATCH the simulator received since request number `since`: a plan sends only ['All']. */
export function patchDryRunsSince(sim: RunningSimulator, since: number): unknown[] {
  return sim.requests
    .slice(since)
    .filter((r) => r.verb === 'patch')
    .map((r) => r.query.dryRun);
}
