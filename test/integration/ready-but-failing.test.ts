/**
 * A Ready InferenceService is not trusted over its controller: Warning events on it newer than its
 * Ready condition make it "Ready, but failing" with the controller's refusal as the root cause; the
 * same events from before it became Ready are history, and it is ready.
 */
import { afterEach, expect, it } from '@jest/globals';
import path from 'node:path';
import { diagnose } from '../../src/app/diagnoser.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';

const SCENARIO = path.resolve('test/scenarios/ready-but-refused-keda-scaledobject-hpa-still-owns');
const TARGET = { namespace: 'default', name: 'keda-standard' };

let sim: RunningSimulator | undefined;
afterEach(async () => sim?.close());

/** The scenario with its InternalError event moved to `at` (the service became Ready at 08:13:25). */
async function diagnoseWithEventAt(at: string) {
  const snapshot = await loadSnapshot(SCENARIO);
  for (const o of snapshot.objects as Array<Record<string, unknown>>)
    if (o.kind === 'Event') Object.assign(o, { firstTimestamp: at, lastTimestamp: at });
  sim = await startSimulator({ snapshot });
  return diagnose(kubeConfigForServer(sim.url), TARGET);
}

it('reads refusals since Ready as the root cause of a Ready service, with how many there were', async () => {
  const report = await diagnoseWithEventAt('2026-03-09T08:44:10Z');
  expect(report.ready).toBe(true);
  expect(report.rootCause).toBe('ADMISSION_DENIED');
  expect(report.findings[0]!.evidence[0]!.text).toBe(
    'Ready since 2026-03-09T08:13:25.000Z, but the controller has failed 14 times since: Ready describes the spec before the latest change',
  );
  expect(report.findings[0]!.next).toMatch(/^kubectl delete hpa keda-standard-predictor -n default: /);
});

it('leaves refusals from before Ready as history: the service is ready', async () => {
  const report = await diagnoseWithEventAt('2026-03-09T08:12:50Z');
  expect(report.rootCause).toBeNull();
  expect(report.findings.map((f) => f.code)).toContain('ISVC_READY');
});
