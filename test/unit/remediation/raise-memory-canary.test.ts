/**
 * raise-memory-limit on a canary's OOMKilled pod targets the canary's own resources, never the
 * stable predictor's: the Standard-mode canary scenario with its canary pod OOMKilled instead (its
 * entry is spec.canary[0], inside a list a merge patch cannot reach: the exact edit by hand).
 */
import path from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import { type RunningSimulator, startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

const SCENARIO = 'canary-standard-v2-model-uri-not-found-kserve-0-20';
const CANARY_POD = 'isvc-canary-create-v2-predictor-7b4d6c8f59-w6zrm';

interface PodStatus {
  conditions: Array<{ type: string; status: string; reason?: string }>;
  initContainerStatuses: Array<Record<string, unknown>>;
  containerStatuses: Array<Record<string, unknown>>;
}

let sim: RunningSimulator | undefined;
afterAll(async () => {
  await sim?.close();
});

it("offers the canary's memory (spec.canary[0]), not the stable predictor's", async () => {
  const snapshot = await loadSnapshot(path.resolve('test/scenarios', SCENARIO));
  const pod = (snapshot.objects as Array<{ kind?: string; metadata: { name: string }; status: PodStatus }>).find(
    (o) => o.kind === 'Pod' && o.metadata.name === CANARY_POD,
  )!;
  // the model downloads; the server is OOMKilled
  pod.status.initContainerStatuses[0] = {
    ...pod.status.initContainerStatuses[0],
    ready: true,
    restartCount: 0,
    lastState: {},
    state: { terminated: { exitCode: 0, reason: 'Completed' } },
  };
  pod.status.containerStatuses[0] = {
    ...pod.status.containerStatuses[0],
    restartCount: 4,
    lastState: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
    state: { waiting: { reason: 'CrashLoopBackOff' } },
  };
  pod.status.conditions = pod.status.conditions.map((c) =>
    c.type === 'Initialized' ? { type: c.type, status: 'True' } : c,
  );
  sim = await startSimulator({ snapshot });
  const report = await diagnose(kubeConfigForServer(sim.url), {
    namespace: 'kserve-ci-e2e-test',
    name: 'isvc-canary-create',
  });
  const oom = report.findings.find((f) => f.code === 'OOM_KILLED');
  expect(oom?.remediation).toMatchObject({
    action: 'manual',
    summary:
      'Raise the memory limit at spec.canary[0].predictor.model.resources.limits.memory from 256Mi to 512Mi by hand (it is inside a list, which a merge patch cannot reach)',
  });
  expect(report.findings[0]?.code).toBe('CANARY_UNHEALTHY');
});
