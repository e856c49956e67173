/**
 * KFServing (serving.kubeflow.org) 0.1 to 0.6: KFService v1alpha1 (0.1), InferenceService v1alpha2
 * (0.2+), v1beta1 (0.5+, the storage version, v1alpha2 converted by the controller's webhook), and
 * TrainedModel (0.5+).
 */
import { groupKinds, type Product } from './catalog-kind.js';
import { minorReleases } from './release-version.js';

export const KFSERVING: Product = {
  id: 'kfserving',
  releases: minorReleases(0, 1, 6),
  kinds: [
    ...groupKinds('serving.kubeflow.org', 'kfserving-inferenceservice', [
      {
        kind: 'InferenceService',
        short: ['isvc'],
        versions: [
          { version: 'v1beta1', from: '0.5' },
          { version: 'v1alpha2', from: '0.2' },
        ],
      },
    ]),
    ...groupKinds('serving.kubeflow.org', 'none', [
      { kind: 'KFService', short: ['kfservice'], versions: [{ version: 'v1alpha1', until: '0.1' }] },
      { kind: 'TrainedModel', short: ['tm'], versions: [{ version: 'v1alpha1', from: '0.5' }] },
    ]),
  ],
};
