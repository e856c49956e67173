/** KFServing 0.5's InferenceService conversion webhook, v1alpha2 <-> v1beta1. */
import { kfservingToV1alpha2, kfservingToV1beta1 } from '../../../src/simulator/api-catalog/kfserving-conversion.js';
import type { KubeObject } from '../../../src/simulator/kube-object.js';

const metadata = { name: 'sklearn-iris', namespace: 'default', annotations: { a: 'b' } };
const resources = { limits: { cpu: '1', memory: '2Gi' } };

const v1alpha2: KubeObject = {
  apiVersion: 'serving.kubeflow.org/v1alpha2',
  kind: 'InferenceService',
  metadata,
  spec: {
    default: {
      predictor: {
        sklearn: { storageUri: 'gs://models/iris', runtimeVersion: '0.3.0', resources },
        minReplicas: 1,
        parallelism: 4,
        serviceAccountName: 'sa',
        logger: { url: 'http://log', mode: 'all' },
      },
      transformer: { custom: { container: { name: 'kfserving-container', image: 'transformer:1' } }, maxReplicas: 3 },
      explainer: { alibi: { type: 'AnchorTabular', storageUri: 'gs://explainer', config: { threshold: '0.9' } } },
    },
    canary: { predictor: { sklearn: { storageUri: 'gs://models/iris-v2' } } },
    canaryTrafficPercent: 20,
  },
  status: {
    url: 'http://sklearn-iris.default.example.com/v1/models/sklearn-iris:predict',
    conditions: [{ type: 'Ready', status: 'True' }],
    default: {
      predictor: {
        name: 'sklearn-iris-predictor-default-8bp2x',
        host: 'sklearn-iris-predictor-default.default.example.com',
      },
    },
    canary: { predictor: { name: 'sklearn-iris-predictor-canary-x' } },
    traffic: 80,
    canaryTraffic: 20,
  },
};

describe('v1alpha2 → v1beta1', () => {
  const converted = kfservingToV1beta1(v1alpha2);

  it('converts the default endpoint and drops the canary endpoint, keeping its traffic percent', () => {
    expect(converted.apiVersion).toBe('serving.kubeflow.org/v1beta1');
    expect(converted.metadata).toEqual(metadata);
    expect(converted.spec).toEqual({
      predictor: {
        sklearn: { storageUri: 'gs://models/iris', runtimeVersion: '0.3.0', resources },
        minReplicas: 1,
        containerConcurrency: 4,
        canaryTrafficPercent: 20,
        logger: { url: 'http://log', mode: 'all' },
        serviceAccountName: 'sa',
      },
      transformer: { maxReplicas: 3, containers: [{ name: 'kfserving-container', image: 'transformer:1' }] },
      explainer: {
        containerConcurrency: 0,
        alibi: { type: 'AnchorTabular', storageUri: 'gs://explainer', runtimeVersion: '' },
      },
    });
  });

  it('carries status over as the inverse of the read mapping (the controller would rewrite it)', () => {
    expect(converted.status).toEqual({
      conditions: [{ type: 'Ready', status: 'True' }],
      url: 'http://sklearn-iris.default.example.com/v1/models/sklearn-iris:predict',
      components: {
        predictor: {
          latestCreatedRevision: 'sklearn-iris-predictor-default-8bp2x',
          url: 'http://sklearn-iris-predictor-default.default.example.com',
        },
      },
    });
  });

  it('turns a custom predictor into the component containers', () => {
    const custom = kfservingToV1beta1({
      ...v1alpha2,
      spec: { default: { predictor: { custom: { container: { image: 'me/model:1' } } } } },
    });
    expect(custom.spec).toEqual({ predictor: { containers: [{ image: 'me/model:1' }] } });
  });
});

describe('v1beta1 → v1alpha2', () => {
  it('reads a v1beta1 object as the default endpoint, status.components as status.default', () => {
    const v1beta1: KubeObject = {
      apiVersion: 'serving.kubeflow.org/v1beta1',
      kind: 'InferenceService',
      metadata,
      spec: {
        predictor: {
          tensorflow: { storageUri: 'gs://flowers', runtimeVersion: '1.14.0' },
          canaryTrafficPercent: 10,
          containerConcurrency: 2,
          minReplicas: 0,
        },
      },
      status: {
        observedGeneration: 3,
        url: 'http://flowers.default.example.com',
        conditions: [{ type: 'Ready', status: 'False', reason: 'RevisionMissing' }],
        components: {
          predictor: {
            latestCreatedRevision: 'flowers-predictor-default-00002',
            latestReadyRevision: 'flowers-predictor-default-00001',
            url: 'http://flowers-predictor-default.default.example.com',
          },
        },
      },
    };
    const read = kfservingToV1alpha2(v1beta1);
    expect(read.spec).toEqual({
      default: {
        predictor: {
          tensorflow: { runtimeVersion: '1.14.0', storageUri: 'gs://flowers' },
          minReplicas: 0,
          parallelism: 2,
        },
      },
      canaryTrafficPercent: 10,
    });
    expect(read.status).toEqual({
      conditions: [{ type: 'Ready', status: 'False', reason: 'RevisionMissing' }],
      url: 'http://flowers.default.example.com',
      default: {
        predictor: { name: 'flowers-predictor-default-00002', host: 'flowers-predictor-default.default.example.com' },
      },
    });
  });

  it('round-trips the default endpoint of a v1alpha2 object', () => {
    const back = kfservingToV1alpha2(kfservingToV1beta1(v1alpha2));
    expect((back.spec as { default: { predictor: unknown } }).default.predictor).toEqual({
      sklearn: { runtimeVersion: '0.3.0', resources, storageUri: 'gs://models/iris' },
      minReplicas: 1,
      parallelism: 4,
      logger: { url: 'http://log', mode: 'all' },
    });
    expect((back.spec as { canary?: unknown }).canary).toBeUndefined();
  });
});
