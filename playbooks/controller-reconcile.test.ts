/**
 * controller-reconcile on an InferenceService the controller cannot reconcile: the Warning events on
 * the InferenceService itself, and (with no status at all) the controller's log lines about this
 * service and no other, are matched against the controller signatures; on a Ready service only the
 * refusals since it became Ready count.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { controllerReconcile } from './controller-reconcile.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const SUBJECT = 'InferenceService ml/iris';
const UID = '6b0e7d0c-4a8e-4c55-9a51-0d7c3f2a9e11';

function isvc(conditions: Array<Record<string, string>>): Record<string, unknown> {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'iris', namespace: 'ml', uid: UID, generation: 1 },
    spec: {
      predictor: {
        nodeSelector: { 'cloud.google.com/gke-accelerator': 'nvidia-l4' },
        model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model' },
      },
    },
    status: conditions.length ? { observedGeneration: 1, conditions } : {},
  };
}

function warning(message: string, at: string, kind = 'InferenceService', name = 'iris') {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${at.replace(/\D/g, '')}`, namespace: 'ml' },
    involvedObject: { kind, name, namespace: 'ml' },
    type: 'Warning',
    reason: 'InternalError',
    message,
    lastTimestamp: at,
  };
}

const KNATIVE_REFUSAL =
  'fails to reconcile predictor: admission webhook "validation.webhook.serving.knative.dev" denied the request: validation failed: must not set the field(s): spec.template.spec.nodeSelector';
const NOT_READY = [
  { type: 'Ready', status: 'False', reason: 'InternalError', lastTransitionTime: '2026-11-02T09:00:00Z' },
];
const READY = [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-11-02T09:00:00Z' }];

const controllerPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'kserve-controller-manager-5d7f9-abcde',
    namespace: 'kserve',
    labels: { 'control-plane': 'kserve-controller-manager' },
  },
  spec: { containers: [{ name: 'manager', image: 'kserve/kserve-controller:v0.14.1' }] },
  status: { phase: 'Running' },
};

describe('controller-reconcile', () => {
  it("reports the admission webhook's refusal recorded on the InferenceService", async () => {
    const { report } = await runPlaybook(
      controllerReconcile,
      [isvc(NOT_READY), warning(KNATIVE_REFUSAL, '2026-11-02T09:00:05Z')],
      TARGET,
    );
    expect(report.rootCause).toBe('ADMISSION_DENIED');
    const f = report.findings[0]!;
    expect(f).toMatchObject({ code: 'ADMISSION_DENIED', subject: SUBJECT });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'event', text: expect.stringContaining('spec.template.spec.nodeSelector') }),
    );
  });

  it('ignores Warning events about other objects', async () => {
    const { codes } = await runPlaybook(
      controllerReconcile,
      [isvc(NOT_READY), warning(KNATIVE_REFUSAL, '2026-11-02T09:00:05Z', 'InferenceService', 'iris-2')],
      TARGET,
    );
    expect(codes.filter((c) => controllerReconcile.emits.includes(c as never))).toEqual([]);
  });

  it("with no status at all, reads the controller's log and keeps only the lines about this service", async () => {
    const about = (name: string, error: string) =>
      JSON.stringify({
        level: 'error',
        ts: '2026-11-02T09:00:04Z',
        msg: 'Reconciler error',
        InferenceService: { name, namespace: 'ml' },
        error,
      });
    const { report } = await runPlaybook(controllerReconcile, [isvc([]), controllerPod], TARGET, {
      logs: {
        'kserve/kserve-controller-manager-5d7f9-abcde/manager': [
          about('other', 'No ServingRuntimes or ClusterServingRuntimes with the name: kserve-xgbserver'),
          about(
            'iris',
            'StorageURI not supported: storageUri, must be one of: [gs://, s3://, pvc://]. StorageUri [hf://Qwen/Qwen2.5-0.5B] is not supported',
          ),
          '',
        ].join('\n'),
      },
    });
    const codes = report.findings.map((f) => f.code);
    expect(codes).toContain('STORAGE_URI_UNSUPPORTED');
    expect(codes).not.toContain('NO_SUPPORTING_RUNTIME');
    const f = report.findings.find((x) => x.code === 'STORAGE_URI_UNSUPPORTED')!;
    expect(f).toMatchObject({ subject: SUBJECT, component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'log',
        ref: 'Pod kserve/kserve-controller-manager-5d7f9-abcde',
        container: 'manager',
      }),
    );
  });

  it('on a Ready service, reports only the refusals since it became Ready', async () => {
    const before = await runPlaybook(
      controllerReconcile,
      [isvc(READY), warning(KNATIVE_REFUSAL, '2026-11-02T08:59:00Z')],
      TARGET,
    );
    expect(before.codes).toEqual(['ISVC_READY']);
    const after = await runPlaybook(
      controllerReconcile,
      [isvc(READY), warning(KNATIVE_REFUSAL, '2026-11-02T09:10:00Z')],
      TARGET,
    );
    const f = after.report.findings.find((x) => x.code === 'ADMISSION_DENIED')!;
    expect(f.subject).toBe(SUBJECT);
    expect(f.evidence[0]).toMatchObject({
      kind: 'field',
      text: expect.stringMatching(/^Ready since 2026-11-02T09:00:00\.000Z, but the controller has failed once since/),
    });
  });
});
