/**
 * A report carries the reads it was made from (`report.reads`): a remediation planned right after
 * the diagnosis finds the InferenceService and its pods there, without a request; the reads stay in
 * the process (no JSON of the report holds them), so a copy from elsewhere has none.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Playbook } from '../../src/diagnosis/playbook.js';
import { answeredReadsOf, runDiagnosis } from '../../src/diagnosis/run-diagnosis.js';
import type { Report } from '../../src/findings/types.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';

const readsPods: Playbook = {
  id: 'reads-pods',
  title: 'reads pods',
  emits: [],
  run: async (ctx) => {
    await ctx.reader.pods(ctx.target.namespace, 'serving.kserve.io/inferenceservice=sklearn-iris');
    return [];
  },
};

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ snapshot: await loadSnapshot('test/scenarios/healthy-kserve'), port: 0 });
});
afterAll(async () => sim?.close());

it('holds what the diagnosis read, answered without a request, and is left out of its JSON', async () => {
  const report = await runDiagnosis([readsPods], kubeConfigForServer(sim.url), {
    namespace: 'default',
    name: 'sklearn-iris',
  });
  const before = sim.requests.length;
  const seen = answeredReadsOf(report);
  expect(seen?.inferenceService('default', 'sklearn-iris')?.object.metadata.name).toBe('sklearn-iris');
  expect(seen?.pods('default', 'serving.kserve.io/inferenceservice=sklearn-iris')?.length).toBeGreaterThan(0);
  expect(seen?.limitRanges('default')).toBeUndefined(); // never read: the caller reads it itself
  expect(sim.requests.length).toBe(before);

  const copy = JSON.parse(JSON.stringify(report)) as Report;
  expect(Object.keys(copy)).not.toContain('reads');
  expect(answeredReadsOf(copy)).toBeUndefined();
  expect(copy.findings).toEqual(report.findings);
});
