import { describe, expect, it } from '@jest/globals';
import { fieldPathOf } from '../../../src/diagnosis/field-path.js';
import { fieldPathProblem } from '../../../src/findings/next-step-quality.js';
import type { InferenceServiceObject } from '../../../src/kube/schemas.js';

const isvc = (apiVersion: string, spec: Record<string, unknown>): InferenceServiceObject =>
  ({ apiVersion, kind: 'InferenceService', metadata: { name: 'm', namespace: 'ns' }, spec }) as InferenceServiceObject;

const container = { image: 'registry.example.com/m:1', env: [{ name: 'A', value: 'b' }], resources: {} };

/** One object of each shape a component takes, on every API version. */
const SHAPES: Array<[string, InferenceServiceObject]> = [
  [
    'v1alpha2 framework',
    isvc('serving.kubeflow.org/v1alpha2', { default: { predictor: { sklearn: { storageUri: 'gs://b/m' } } } }),
  ],
  ['v1alpha2 custom', isvc('serving.kubeflow.org/v1alpha2', { default: { predictor: { custom: { container } } } })],
  [
    'v1alpha2 custom transformer',
    isvc('serving.kubeflow.org/v1alpha2', {
      default: { predictor: { sklearn: { storageUri: 'gs://b/m' } }, transformer: { custom: { container } } },
    }),
  ],
  ['v1beta1 framework', isvc('serving.kserve.io/v1beta1', { predictor: { sklearn: { storageUri: 'gs://b/m' } } })],
  [
    'v1beta1 model',
    isvc('serving.kserve.io/v1beta1', {
      predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://b/m' } },
    }),
  ],
  [
    'v1beta1 containers',
    isvc('serving.kserve.io/v1beta1', { predictor: { containers: [{ name: 'kserve-container', ...container }] } }),
  ],
];

describe('fieldPathOf', () => {
  it('names a v1alpha2 custom container field under custom.container, where CustomSpec keeps it', () => {
    const [, obj] = SHAPES[1]!;
    expect(fieldPathOf(obj, 'predictor', 'image')).toBe('spec.default.predictor.custom.container.image');
    expect(fieldPathOf(obj, 'predictor', 'resources')).toBe('spec.default.predictor.custom.container.resources');
    expect(fieldPathOf(obj, 'predictor', 'storageUri')).toBe(
      'spec.default.predictor.custom.container.env[STORAGE_URI]',
    );
  });

  it.each(SHAPES)('names only paths the object has or can take (%s)', (_, obj) => {
    const components = obj.apiVersion?.endsWith('v1alpha2') ? ['predictor', 'transformer'] : ['predictor'];
    for (const component of components)
      for (const key of ['image', 'resources', 'env', 'args', 'storageUri', 'serviceAccountName', 'minReplicas']) {
        const path = fieldPathOf(obj, component, key);
        expect({ path, problem: fieldPathProblem(obj, path) }).toEqual({ path, problem: undefined });
      }
  });
});
