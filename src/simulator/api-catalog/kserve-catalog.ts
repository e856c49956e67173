/**
 * KServe (serving.kserve.io) from 0.7, CRD by CRD as each release's config/crd installs them.
 * LLMInferenceService and LLMInferenceServiceConfig (v1alpha1 from 0.16, v1alpha2 stored and
 * preferred from 0.17) belong to the separately installed `llmisvc` component, which runs with the
 * Gateway API, the Gateway API Inference Extension, LeaderWorkerSet and KEDA releases of that
 * KServe release's go.mod.
 */
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
    {
      kind: 'ClusterStorageContainer',
      cluster: true,
      status: false,
      versions: [{ version: 'v1alpha1', from: '0.12' }],
    },
    { kind: 'ClusterLocalModel', cluster: true, versions: [{ version: 'v1alpha1', from: '0.14', until: '0.14' }] },
    { kind: 'LocalModelNodeGroup', cluster: true, status: false, versions: [{ version: 'v1alpha1', from: '0.14' }] },
    { kind: 'LocalModelCache', cluster: true, versions: [{ version: 'v1alpha1', from: '0.15' }] },
    { kind: 'LocalModelNode', cluster: true, versions: [{ version: 'v1alpha1', from: '0.15' }] },
    { kind: 'LocalModelNamespaceCache', versions: [{ version: 'v1alpha1', from: '0.18' }] },
    {
      kind: 'LLMInferenceService',
      short: ['llmisvc'],
      component: 'llmisvc',
      versions: [
        { version: 'v1alpha1', from: '0.16' },
        { version: 'v1alpha2', from: '0.17' },
      ],
    },
    {
      kind: 'LLMInferenceServiceConfig',
      component: 'llmisvc',
      versions: [
        { version: 'v1alpha1', from: '0.16' },
        { version: 'v1alpha2', from: '0.17' },
      ],
    },
  ]),
  companions: {
    component: 'llmisvc',
    releases: {
      '0.16': { gatewayApi: '1.2', inferenceExtension: '0.3', lws: '0.6', keda: '2.16' },
      '0.17': { gatewayApi: '1.4', inferenceExtension: '1.3', lws: '0.7', keda: '2.17' },
      '0.18': { gatewayApi: '1.4', inferenceExtension: '1.3', lws: '0.8', keda: '2.17' },
      '0.19': { gatewayApi: '1.4', inferenceExtension: '1.3', lws: '0.8', keda: '2.18' },
      '0.20': { gatewayApi: '1.5', inferenceExtension: '1.5', lws: '0.8', keda: '2.18' },
    },
  },
};
