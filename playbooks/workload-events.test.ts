/**
 * workload-events on the Warning events of what the service runs on: a refusal of the objects that
 * create its pods (a ReplicaSet's FailedCreate) is matched against the event signatures and reported
 * on that object for the component its name says; the same refusal kept only in PredictorReady
 * (KServe 0.16+ copies the Deployment's ReplicaFailure) decides when the events are gone; a Ready
 * service with a ready pod is left alone.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { workloadEvents } from './workload-events.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const DENIED =
  'Error creating: admission webhook "validation.gatekeeper.sh" denied the request: [container-must-have-limits] container <kserve-container> has no resource limits';

function isvc(conditions: Array<Record<string, string>>): Record<string, unknown> {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'iris', namespace: 'ml', generation: 1 },
    spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://models/iris' } } },
    status: { observedGeneration: 1, conditions },
  };
}

function warning(kind: string, name: string, message: string) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.1`, namespace: 'ml' },
    involvedObject: { kind, name, namespace: 'ml' },
    type: 'Warning',
    reason: 'FailedCreate',
    message,
    count: 7,
    lastTimestamp: '2026-11-02T09:05:00Z',
  };
}

const readyPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'iris-predictor-6d8f-a1b2c',
    namespace: 'ml',
    labels: { 'serving.kserve.io/inferenceservice': 'iris', component: 'predictor' },
  },
  spec: { containers: [{ name: 'kserve-container', image: 'kserve/sklearnserver:v0.14.1' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
};

const NOT_READY = [{ type: 'Ready', status: 'False', reason: 'MinimumReplicasUnavailable' }];

describe('workload-events', () => {
  it("reports a webhook's refusal of the pods on the ReplicaSet it refused, for the component its name says", async () => {
    const { report } = await runPlaybook(
      workloadEvents,
      [isvc(NOT_READY), warning('ReplicaSet', 'iris-predictor-6d8f', DENIED)],
      TARGET,
    );
    expect(report.rootCause).toBe('ADMISSION_DENIED');
    const f = report.findings[0]!;
    expect(f).toMatchObject({
      code: 'ADMISSION_DENIED',
      subject: 'ReplicaSet ml/iris-predictor-6d8f',
      component: 'predictor',
    });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'event', text: expect.stringContaining('validation.gatekeeper.sh') }),
    );
  });

  it('leaves the events on the InferenceService itself to controller-reconcile', async () => {
    const { codes } = await runPlaybook(
      workloadEvents,
      [isvc(NOT_READY), warning('InferenceService', 'iris', DENIED)],
      TARGET,
    );
    expect(codes).not.toContain('ADMISSION_DENIED');
  });

  it('reads the refusal from PredictorReady once its events are gone', async () => {
    const { report } = await runPlaybook(
      workloadEvents,
      [isvc([...NOT_READY, { type: 'PredictorReady', status: 'False', reason: 'FailedCreate', message: DENIED }])],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'ADMISSION_DENIED')!;
    expect(f).toMatchObject({ subject: 'InferenceService ml/iris', component: 'predictor' });
    expect(f.evidence).toContainEqual(expect.objectContaining({ kind: 'condition' }));
  });

  it('leaves a Ready service with a ready pod alone, whatever old events say', async () => {
    const { codes } = await runPlaybook(
      workloadEvents,
      [isvc([{ type: 'Ready', status: 'True' }]), readyPod, warning('ReplicaSet', 'iris-predictor-6d8f', DENIED)],
      TARGET,
    );
    expect(codes).toEqual(['ISVC_READY']);
  });
});
