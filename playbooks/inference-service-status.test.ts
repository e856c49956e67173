/**
 * inference-service-status on the InferenceService's own status: a Ready condition that is not True
 * decides ISVC_NOT_READY (not for a service stopped on purpose), with the conditions and the latest
 * Warning events as evidence; the conditions and modelStatus lines matched against the condition
 * signatures decide MODEL_LOAD_FAILED (even while Ready), NO_SUPPORTING_RUNTIME and POD_UNSCHEDULABLE;
 * a RevisionFailed copied from Knative is REVISION_MISSING on the revision its message names, only
 * when no Knative Service is there to say it itself.
 */
import { describe, expect, it } from '@jest/globals';
import type { Cond as Condition } from '../test/support/condition.js';
import { irisKnativeService } from '../test/support/iris-knative-service.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { inferenceServiceStatus } from './inference-service-status.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const SUBJECT = 'InferenceService ml/iris';

function isvc(
  status: { conditions: Condition[]; modelStatus?: Record<string, unknown> } | undefined,
  annotations?: Record<string, string>,
): Record<string, unknown> {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'iris', namespace: 'ml', generation: 1, ...(annotations ? { annotations } : {}) },
    spec: {
      predictor: {
        model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model' },
      },
    },
    ...(status ? { status: { observedGeneration: 1, ...status } } : {}),
  };
}

const READY: Condition[] = [
  { type: 'IngressReady', status: 'True' },
  { type: 'PredictorReady', status: 'True' },
  { type: 'Ready', status: 'True' },
];

function warning(name: string, reason: string, message: string, at: string) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${at.replace(/\D/g, '')}`, namespace: 'ml' },
    involvedObject: { kind: 'Pod', name, namespace: 'ml' },
    type: 'Warning',
    reason,
    message,
    lastTimestamp: at,
  };
}

const ksvc = irisKnativeService({ conditions: [{ type: 'Ready', status: 'False', reason: 'RevisionFailed' }] });

const UNSCHEDULABLE =
  'Revision "iris-predictor-00001" failed with message: 0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..';

const codesOf = (codes: string[]) => codes.filter((c) => inferenceServiceStatus.emits.includes(c as never));

describe('inference-service-status', () => {
  it('reports a service that is not Ready with its failing conditions and the latest Warning events', async () => {
    const { report } = await runPlaybook(
      inferenceServiceStatus,
      [
        isvc({
          conditions: [
            { type: 'IngressReady', status: 'True' },
            { type: 'PredictorReady', status: 'False', reason: 'ProgressDeadlineExceeded' },
            { type: 'Ready', status: 'False', reason: 'ProgressDeadlineExceeded' },
          ],
        }),
        warning(
          'iris-predictor-00001-deployment-7d9f8-abcde',
          'BackOff',
          'Back-off restarting failed container',
          '2026-11-02T09:01:00Z',
        ),
        warning(
          'other-predictor-00001-deployment-1a2b3-fghij',
          'BackOff',
          'Back-off restarting failed container',
          '2026-11-02T09:02:00Z',
        ),
      ],
      TARGET,
    );
    expect(report.findings.map((f) => f.code)).toEqual(['ISVC_NOT_READY']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    // only the conditions that are not True
    expect(f.evidence.filter((e) => e.kind === 'condition').map((e) => e.text)).toEqual([
      'PredictorReady=False (ProgressDeadlineExceeded)',
      'Ready=False (ProgressDeadlineExceeded)',
    ]);
    // the events about this service's objects, not another's
    expect(f.evidence.filter((e) => e.kind === 'event')).toEqual([
      expect.objectContaining({
        ref: 'Pod ml/iris-predictor-00001-deployment-7d9f8-abcde',
        text: 'BackOff: Back-off restarting failed container',
      }),
    ]);
  });

  it("with no status at all, points at the controller's log for this service", async () => {
    const { report } = await runPlaybook(inferenceServiceStatus, [isvc(undefined)], TARGET);
    const f = report.findings.find((x) => x.code === 'ISVC_NOT_READY')!;
    expect(f.subject).toBe(SUBJECT);
    expect(f.next).toContain('control-plane=kserve-controller-manager');
    expect(f.next).toContain('grep iris');
  });

  it('reports a model that failed to load from modelStatus, even while Ready says True', async () => {
    const { report } = await runPlaybook(
      inferenceServiceStatus,
      [
        isvc({
          conditions: READY,
          modelStatus: {
            lastFailureInfo: { reason: 'ModelLoadFailed', message: 'Failed to load model iris' },
            states: { activeModelState: 'Loaded', targetModelState: 'FailedToLoad' },
            transitionStatus: 'BlockedByFailedLoad',
          },
        }),
      ],
      TARGET,
    );
    expect(report.findings.map((x) => x.code)).not.toContain('ISVC_NOT_READY');
    const f = report.findings.find((x) => x.code === 'MODEL_LOAD_FAILED')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT, component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'field',
        ref: SUBJECT,
        text: 'modelStatus.lastFailureInfo: ModelLoadFailed: Failed to load model iris',
      }),
    );
  });

  it('reports a model format no runtime supports from modelStatus, not as a model load failure', async () => {
    const { report } = await runPlaybook(
      inferenceServiceStatus,
      [
        isvc({
          conditions: [
            { type: 'IngressReady', status: 'Unknown' },
            { type: 'PredictorReady', status: 'Unknown' },
            { type: 'Ready', status: 'Unknown' },
          ],
          modelStatus: {
            lastFailureInfo: {
              reason: 'NoSupportingRuntime',
              message: 'No runtime found to support specified framework/version',
            },
            states: { activeModelState: '', targetModelState: 'FailedToLoad' },
            transitionStatus: 'InvalidSpec',
          },
        }),
      ],
      TARGET,
    );
    const codes = report.findings.map((x) => x.code);
    expect(codes).toContain('NO_SUPPORTING_RUNTIME');
    expect(codes).not.toContain('MODEL_LOAD_FAILED');
    const f = report.findings.find((x) => x.code === 'NO_SUPPORTING_RUNTIME')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'field',
        text: 'modelStatus.lastFailureInfo: NoSupportingRuntime: No runtime found to support specified framework/version',
      }),
    );
  });

  it('reports pods the scheduler cannot place, and the RevisionFailed it copied, on the revision it names', async () => {
    const conditions: Condition[] = [
      { type: 'PredictorReady', status: 'False', reason: 'RevisionFailed', message: UNSCHEDULABLE },
      { type: 'Ready', status: 'False', reason: 'RevisionFailed', message: UNSCHEDULABLE },
    ];
    const { report } = await runPlaybook(inferenceServiceStatus, [isvc({ conditions })], TARGET);
    const unschedulable = report.findings.find((x) => x.code === 'POD_UNSCHEDULABLE')!;
    expect(unschedulable).toMatchObject({ severity: 'error', subject: SUBJECT, component: 'predictor' });
    expect(unschedulable.evidence).toContainEqual(
      expect.objectContaining({ kind: 'condition', text: expect.stringContaining('3 Insufficient memory') }),
    );
    const missing = report.findings.find((x) => x.code === 'REVISION_MISSING')!;
    expect(missing).toMatchObject({
      subject: 'Revision ml/iris-predictor-00001',
      component: 'predictor',
      revision: 'iris-predictor-00001',
    });
    expect(missing.evidence.map((e) => e.text)).toEqual([
      `PredictorReady=False (RevisionFailed): ${UNSCHEDULABLE}`,
      `Ready=False (RevisionFailed): ${UNSCHEDULABLE}`,
    ]);

    // the Knative Service is there to say it itself (knative-service): not copied
    const withKsvc = await runPlaybook(inferenceServiceStatus, [isvc({ conditions }), ksvc], TARGET);
    expect(withKsvc.codes).not.toContain('REVISION_MISSING');
  });

  it('finds nothing on a Ready service, nor a not-Ready one stopped on purpose', async () => {
    const ready = await runPlaybook(inferenceServiceStatus, [isvc({ conditions: READY })], TARGET);
    expect(ready.codes).toEqual(['ISVC_READY']);
    const stopped = await runPlaybook(
      inferenceServiceStatus,
      [
        isvc(
          {
            conditions: [
              { type: 'PredictorReady', status: 'False', reason: 'Stopped' },
              { type: 'Ready', status: 'False', reason: 'Stopped' },
              { type: 'Stopped', status: 'True' },
            ],
          },
          { 'serving.kserve.io/stop': 'true' },
        ),
      ],
      TARGET,
    );
    expect(codesOf(stopped.codes)).toEqual([]);
  });
});
