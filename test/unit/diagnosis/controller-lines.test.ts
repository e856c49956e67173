import { describe, expect, it } from '@jest/globals';
import { linesAbout, type ServiceIdentity } from '../../../src/diagnosis/controller-lines.js';

// Two services whose names overlap (iris, sklearn-iris-2) in ml, and another iris in team-b.
const IRIS: ServiceIdentity = {
  namespace: 'ml',
  name: 'iris',
  uid: '6f1c2d3e-0a1b-4c5d-9e8f-112233445566',
  owned: ['iris-predictor-7d9f8'],
  runtimes: ['kserve-sklearnserver'],
};
const zap = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 'error', ts: '2024-05-02T10:00:00Z', ...fields });
const reconcilerError = (namespace: string, name: string, error: string) =>
  zap({
    msg: 'Reconciler error',
    controller: 'inferenceservice',
    controllerGroup: 'serving.kserve.io',
    controllerKind: 'InferenceService',
    InferenceService: { name, namespace },
    namespace,
    name,
    reconcileID: '5b0c7a54-2f4e-4f0e-9b1a-6f3d2c8e7a19',
    error,
  });

describe('controller log lines about one InferenceService', () => {
  it('ties lines by namespace/name fields, UID, owned objects and runtime, never by part of a name', () => {
    const lines = [
      /* 0 */ reconcilerError('ml', 'sklearn-iris-2', 'fails to reconcile component: no runtime found'),
      /* 1 */ reconcilerError('ml', 'iris', 'fails to reconcile component: no runtime found'),
      /* 2 */ zap({ level: 'info', msg: 'Reconciling inference service', isvc: 'sklearn-iris-2' }),
      /* 3 */ zap({ msg: 'Failed to update', error: 'Deployment.apps "iris-predictor-00001-deployment" is invalid' }),
      /* 4 */ zap({ msg: 'Failed to update', error: 'Deployment.apps "sklearn-iris-2-predictor-00001" is invalid' }),
      /* 5 */ zap({ msg: 'finalizer', object: { uid: '6f1c2d3e-0a1b-4c5d-9e8f-112233445566' } }),
      /* 6 */ zap({ msg: 'No ServingRuntimes or ClusterServingRuntimes with the name: kserve-sklearnserver' }),
      /* 7 */ zap({ msg: 'Failed', Name: 'sklearn-iris-2', error: 'No runtime with the name: kserve-sklearnserver' }),
      /* 8 */ zap({ msg: 'Reconciler error', controller: 'inferenceservice', request: 'ml/iris', error: 'x' }),
      /* 9 */ zap({
        msg: 'Reconciler error',
        controller: 'inferenceservice',
        request: 'ml/sklearn-iris-2',
        error: 'y',
      }),
      /* 10 */ 'E0502 10:00:00.1 1 controller.go:326] "Reconciler error" err="boom" controller="inferenceservice" namespace="ml" name="iris"',
      /* 11 */ zap({ msg: 'knative service iris-predictor-default is not ready' }),
      /* 12 */ zap({ msg: 'Failed to reconcile', Name: 'iris', error: 'z' }),
      /* 13 */ zap({ msg: 'pod iris-predictor-7d9f8 restarted', namespace: 'ml' }),
      /* 14 */ zap({ msg: 'reconciled ml/sklearn-iris-2 and ml/iris-2' }),
      /* 15 */ zap({ msg: 'reconciled', key: 'ml/iris' }),
    ];
    expect(linesAbout(lines, IRIS)).toEqual([1, 3, 5, 6, 8, 10, 11, 12, 13, 15]);
    expect(linesAbout(lines, { namespace: 'ml', name: 'sklearn-iris-2' })).toEqual([0, 2, 4, 7, 9, 14]);
  });

  it('keeps the same name in two namespaces apart', () => {
    const lines = [
      /* 0 */ reconcilerError('ml', 'iris', 'fails to reconcile component: a'),
      /* 1 */ reconcilerError('team-b', 'iris', 'fails to reconcile component: b'),
      /* 2 */ zap({ msg: 'Deployment iris-predictor updated', namespace: 'team-b' }),
      /* 3 */ zap({ msg: 'Deployment iris-predictor updated', namespace: 'ml' }),
      /* 4 */ zap({ msg: 'knative service iris-predictor-default is not ready' }),
      /* 5 */ zap({ msg: 'Failed to reconcile', Name: 'iris', error: 'a' }),
      /* 6 */ zap({ msg: 'finalizer', object: { uid: '6f1c2d3e-0a1b-4c5d-9e8f-112233445566' } }),
    ];
    expect(linesAbout(lines, IRIS)).toEqual([0, 3, 6]);
    expect(linesAbout(lines, { namespace: 'team-b', name: 'iris' })).toEqual([1, 2]);
  });

  it('takes a line naming the service without its namespace only while no line puts that name elsewhere', () => {
    const failed = zap({ msg: 'Failed to reconcile', Name: 'iris', error: 'no runtime found' });
    expect(linesAbout([failed], IRIS)).toEqual([0]);
    // KFServing's "Failed to reconcile" (no namespace) is tied by the error it shares with the next line
    const ours = reconcilerError('ml', 'iris', 'fails to reconcile component: no runtime found');
    const theirs = reconcilerError('team-b', 'iris', 'fails to reconcile component: other');
    expect(linesAbout([failed, ours, theirs], IRIS)).toEqual([0, 1]);
    expect(linesAbout([theirs, failed], IRIS)).toEqual([]);
  });

  it("reads the reconciler's name and namespace for the kind it reconciles", () => {
    const llm = (kind: string, name: string) =>
      zap({
        msg: 'Reconciler error',
        controller: kind.toLowerCase(),
        controllerKind: kind,
        [kind]: { name, namespace: 'ml' },
        namespace: 'ml',
        name,
        Name: name,
        error: 'failed to combine base-configurations',
      });
    const lines = [
      llm('LLMInferenceService', 'qwen'),
      llm('LLMInferenceService', 'qwen-2'),
      llm('InferenceService', 'qwen'),
    ];
    expect(linesAbout(lines, { namespace: 'ml', name: 'qwen', kind: 'LLMInferenceService' })).toEqual([0]);
    expect(linesAbout(lines, { namespace: 'ml', name: 'qwen' })).toEqual([2]);
  });
});
