/** Where the custom resources a diagnosis reads live in the API. */
export interface CustomResource {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

const cr = (group: string, version: string, plural: string, kind: string, namespaced = true): CustomResource => ({
  group,
  version,
  plural,
  kind,
  namespaced,
});

/** InferenceService API versions, most preferred first. */
export const INFERENCE_SERVICE_VERSIONS: readonly CustomResource[] = [
  cr('serving.kserve.io', 'v1beta1', 'inferenceservices', 'InferenceService'),
  cr('serving.kubeflow.org', 'v1beta1', 'inferenceservices', 'InferenceService'),
  cr('serving.kubeflow.org', 'v1alpha2', 'inferenceservices', 'InferenceService'),
];

export const KNATIVE_SERVICE = cr('serving.knative.dev', 'v1', 'services', 'Service');
export const KNATIVE_REVISION = cr('serving.knative.dev', 'v1', 'revisions', 'Revision');
export const ISTIO_GATEWAY = cr('networking.istio.io', 'v1alpha3', 'gateways', 'Gateway');
export const ISTIO_VIRTUAL_SERVICE = cr('networking.istio.io', 'v1alpha3', 'virtualservices', 'VirtualService');
export const ISTIO_AUTHORIZATION_POLICY = cr('security.istio.io', 'v1beta1', 'authorizationpolicies', 'AuthorizationPolicy');
export const ISTIO_CLUSTER_RBAC_CONFIG = cr('rbac.istio.io', 'v1alpha1', 'clusterrbacconfigs', 'ClusterRbacConfig', false);
export const SERVING_RUNTIME = cr('serving.kserve.io', 'v1alpha1', 'servingruntimes', 'ServingRuntime');
export const CLUSTER_SERVING_RUNTIME = cr('serving.kserve.io', 'v1alpha1', 'clusterservingruntimes', 'ClusterServingRuntime', false);

/** Label keys that tie pods and Knative objects to their InferenceService, by API group. */
export function inferenceServiceLabel(group: string): string {
  return `${group}/inferenceservice`;
}
