/**
 * The registry installs what an object that arrives later needs: a product no object had brought,
 * or an optional component (KServe's LLMInferenceService) its profile left out.
 */
import { resolveClusterProfile } from '../../../src/simulator/api-catalog/cluster-profile.js';
import { ResourceRegistry } from '../../../src/simulator/resource-registry.js';

const isvc = { apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', metadata: { name: 'x' } };

it('an LLMInferenceService arriving on a KServe cluster without the component installs it, both versions', () => {
  const registry = new ResourceRegistry(resolveClusterProfile([isvc]));
  expect(registry.byKind('serving.kserve.io/v1alpha2', 'LLMInferenceService')).toBeUndefined();
  const type = registry.ensure('serving.kserve.io/v1alpha2', 'LLMInferenceService');
  expect(type).toMatchObject({ plural: 'llminferenceservices', shortNames: ['llmisvc'] });
  expect(registry.byKind('serving.kserve.io/v1alpha1', 'LLMInferenceService')).toBeDefined();
  expect(registry.byKind('serving.kserve.io/v1alpha2', 'LLMInferenceServiceConfig')).toBeDefined();
  // the rest of KServe is not added twice
  expect(registry.all().filter((t) => t.kind === 'InferenceService')).toHaveLength(1);
});

it('a LeaderWorkerSet on a bare cluster installs LeaderWorkerSet with its short name and scale subresource', () => {
  const registry = new ResourceRegistry();
  const type = registry.ensure('leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet');
  expect(type).toMatchObject({ shortNames: ['lws'], subresources: ['status', 'scale'] });
  expect(registry.releases.lws).toBe('0.10');
});
