/** KServe (serving.kserve.io) from 0.7, CRD by CRD as each release's config/crd installs them. */
import { groupKinds, type Product } from './catalog-kind.js';
import { minorReleases } from './release-version.js';

export const KSERVE: Product = {
  id: 'kserve',
  releases: minorReleases(0, 7, 20),
  kinds: groupKinds('serving.kserve.io', 'none', [
    { kind: 'InferenceService', short: ['isvc'], versions: [{ version: 'v1beta1' }] },
    { kind: 'TrainedModel', short: ['tm'], versions: [{ version: 'v1alpha1' }] },
    { kind: 'ServingRuntime', status: false, versions: [{ version: 'v1alpha1', from: '0.8' }] },
    { kind: 'ClusterServingRuntime', cluster: true, status: false, versions: [{ version: 'v1alpha1', from: '0.8' }] },
    { kind: 'InferenceGraph', short: ['ig'], versions: [{ version: 'v1alpha1', from: '0.9' }] },
    { kind: 'ClusterStorageContainer', cluster: true, status: false, versions: [{ version: 'v1alpha1', from: '0.12' }] },
    { kind: 'ClusterLocalModel', cluster: true, versions: [{ version: 'v1alpha1', from: '0.14', until: '0.14' }] },
    { kind: 'LocalModelNodeGroup', cluster: true, status: false, versions: [{ version: 'v1alpha1', from: '0.14' }] },
    { kind: 'LocalModelCache', cluster: true, versions: [{ version: 'v1alpha1', from: '0.15' }] },
    { kind: 'LocalModelNode', cluster: true, versions: [{ version: 'v1alpha1', from: '0.15' }] },
    { kind: 'LocalModelNamespaceCache', versions: [{ version: 'v1alpha1', from: '0.18' }] },
    { kind: 'LLMInferenceService', short: ['llmisvc'], versions: [{ version: 'v1alpha1', from: '0.16' }, { version: 'v1alpha2', from: '0.17' }] },
    { kind: 'LLMInferenceServiceConfig', versions: [{ version: 'v1alpha1', from: '0.16' }, { version: 'v1alpha2', from: '0.17' }] },
  ]),
};
