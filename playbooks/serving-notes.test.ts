/**
 * serving-notes on a Ready InferenceService: a Serverless URL under `.svc.cluster.local` decides
 * URL_CLUSTER_LOCAL; several runtimes that auto-select the model's format decide RUNTIME_SELECTED, the
 * pod's image naming the one that serves it; minReplicas 0 in RawDeployment mode decides
 * SCALE_TO_ZERO_UNAVAILABLE, with the HPA's minReplicas. A service that is not Ready gets no notes.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { servingNotes } from './serving-notes.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const SUBJECT = 'InferenceService ml/iris';

function isvc(opts: {
  mode: 'Serverless' | 'RawDeployment';
  url: string;
  runtime?: string;
  minReplicas?: number;
  ready?: boolean;
}): Record<string, unknown> {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: {
      name: 'iris',
      namespace: 'ml',
      generation: 1,
      annotations: { 'serving.kserve.io/deploymentMode': opts.mode },
    },
    spec: {
      predictor: {
        ...(opts.minReplicas === undefined ? {} : { minReplicas: opts.minReplicas }),
        model: {
          modelFormat: { name: 'sklearn' },
          ...(opts.runtime ? { runtime: opts.runtime } : {}),
          storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model',
        },
      },
    },
    status: {
      observedGeneration: 1,
      url: opts.url,
      address: { url: 'http://iris-predictor.ml.svc.cluster.local' },
      conditions: [
        { type: 'PredictorReady', status: opts.ready === false ? 'False' : 'True' },
        { type: 'Ready', status: opts.ready === false ? 'False' : 'True' },
      ],
    },
  };
}

function runtime(name: string, image: string, priority: number, format = 'sklearn'): Record<string, unknown> {
  return {
    apiVersion: 'serving.kserve.io/v1alpha1',
    kind: 'ClusterServingRuntime',
    metadata: { name },
    spec: {
      protocolVersions: ['v1', 'v2'],
      supportedModelFormats: [{ name: format, version: '1', autoSelect: true, priority }],
      containers: [{ name: 'kserve-container', image }],
    },
  };
}

function pod(image: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'iris-predictor-00001-deployment-6d8f7c9b5-k2x7p',
      namespace: 'ml',
      labels: { 'serving.kserve.io/inferenceservice': 'iris', component: 'predictor' },
    },
    spec: { containers: [{ name: 'kserve-container', image }] },
    status: { phase: 'Running' },
  };
}

const EXTERNAL = 'http://iris.ml.example.com';
const SKLEARN = 'kserve/sklearnserver:v0.14.1';
const MLSERVER = 'docker.io/seldonio/mlserver:1.5.0';

describe('serving-notes', () => {
  it('notes a Serverless URL under .svc.cluster.local, with the URL', async () => {
    const { report } = await runPlaybook(
      servingNotes,
      [isvc({ mode: 'Serverless', url: 'http://iris.ml.svc.cluster.local', runtime: 'kserve-sklearnserver' })],
      TARGET,
    );
    expect(report.rootCause).toBeNull();
    const f = report.findings.find((x) => x.code === 'URL_CLUSTER_LOCAL')!;
    expect(f).toMatchObject({ severity: 'info', subject: SUBJECT });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'field', ref: SUBJECT, text: 'url: http://iris.ml.svc.cluster.local' }),
    );
  });

  it('names the runtime KServe chose among those that fit, by the image the pod runs', async () => {
    const { report } = await runPlaybook(
      servingNotes,
      [
        isvc({ mode: 'Serverless', url: EXTERNAL }),
        runtime('kserve-sklearnserver', SKLEARN, 1),
        runtime('kserve-mlserver', MLSERVER, 2),
        runtime('kserve-xgbserver', 'kserve/xgbserver:v0.14.1', 1, 'xgboost'),
        pod(`docker.io/${SKLEARN}`),
      ],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'RUNTIME_SELECTED')!;
    expect(f).toMatchObject({ severity: 'info', subject: SUBJECT, component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        ref: SUBJECT,
        text: 'modelFormat: sklearn; protocolVersion: v1; runtime: (chosen by KServe)',
      }),
    );
    // the pod's image (docker.io/ prefix or not) decides which one serves it; xgbserver does not fit sklearn
    expect(f.evidence.filter((e) => e.kind === 'field' && e.ref !== SUBJECT).map((e) => [e.ref, e.text])).toEqual([
      [
        'ClusterServingRuntime kserve-mlserver',
        `also fits: kserve-mlserver (sklearn 1: priority 2; image ${MLSERVER})`,
      ],
      [
        'ClusterServingRuntime kserve-sklearnserver',
        `serves it: kserve-sklearnserver (sklearn 1: priority 1; image ${SKLEARN})`,
      ],
    ]);
    expect(f.next).toContain('spec.predictor.model.runtime');
  });

  it('notes minReplicas 0 in RawDeployment mode, with the HPA that keeps one pod', async () => {
    const { report } = await runPlaybook(
      servingNotes,
      [
        isvc({ mode: 'RawDeployment', url: EXTERNAL, runtime: 'kserve-sklearnserver', minReplicas: 0 }),
        {
          apiVersion: 'autoscaling/v2',
          kind: 'HorizontalPodAutoscaler',
          metadata: {
            name: 'iris-predictor',
            namespace: 'ml',
            labels: { 'serving.kserve.io/inferenceservice': 'iris', component: 'predictor' },
          },
          spec: {
            minReplicas: 1,
            maxReplicas: 3,
            scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'iris-predictor' },
          },
        },
      ],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'SCALE_TO_ZERO_UNAVAILABLE')!;
    expect(f).toMatchObject({ severity: 'info', subject: SUBJECT, component: 'predictor' });
    expect(f.evidence.map((e) => [e.ref, e.text])).toEqual([
      [SUBJECT, 'serving.kserve.io/deploymentMode: RawDeployment'],
      [SUBJECT, 'spec.predictor.minReplicas: 0'],
      ['HorizontalPodAutoscaler ml/iris-predictor', 'minReplicas: 1'],
    ]);
  });

  it('has nothing to note on a Ready service with an external URL, a named runtime and minReplicas 1', async () => {
    const { codes } = await runPlaybook(
      servingNotes,
      [
        isvc({ mode: 'RawDeployment', url: EXTERNAL, runtime: 'kserve-sklearnserver', minReplicas: 1 }),
        runtime('kserve-sklearnserver', SKLEARN, 1),
        runtime('kserve-mlserver', MLSERVER, 2),
      ],
      TARGET,
    );
    expect(codes).toEqual(['ISVC_READY']);
  });

  it('notes nothing on a service that is not Ready, whatever it would say', async () => {
    const { codes } = await runPlaybook(
      servingNotes,
      [isvc({ mode: 'RawDeployment', url: 'http://iris.ml.svc.cluster.local', minReplicas: 0, ready: false })],
      TARGET,
    );
    expect(codes.filter((c) => servingNotes.emits.includes(c as never))).toEqual([]);
  });
});
