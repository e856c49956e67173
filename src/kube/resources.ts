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
export const ISTIO_CLUSTER_RBAC_CONFIG = cr(
  'rbac.istio.io',
  'v1alpha1',
  'clusterrbacconfigs',
  'ClusterRbacConfig',
  false,
);
export const SERVING_RUNTIME = cr('serving.kserve.io', 'v1alpha1', 'servingruntimes', 'ServingRuntime');
export const CLUSTER_SERVING_RUNTIME = cr(
  'serving.kserve.io',
  'v1alpha1',
  'clusterservingruntimes',
  'ClusterServingRuntime',
  false,
);

/** Label keys that tie pods and Knative objects to their InferenceService, by API group. */
export function inferenceServiceLabel(group: string): string {
  return `${group}/inferenceservice`;
}

/**
 * A resource a cluster may serve at one of several versions (Knative Serving 0.x served only
 * v1alpha1 / v1beta1; clusters before Kubernetes 1.19 no networking.k8s.io/v1 Ingress). The reader
 * lists it at the first of `versions` the cluster serves (discovery), and not at all when its group
 * is not served.
 */
export interface VersionedResource {
  group: string;
  versions: readonly string[];
  plural: string;
  kind: string;
  namespaced: boolean;
}

const vr = (group: string, versions: string[], plural: string, kind: string, namespaced = true): VersionedResource => ({
  group,
  versions,
  plural,
  kind,
  namespaced,
});

export const KNATIVE_SERVICES = vr('serving.knative.dev', ['v1', 'v1beta1', 'v1alpha1'], 'services', 'Service');
export const KNATIVE_REVISIONS = vr('serving.knative.dev', ['v1', 'v1beta1', 'v1alpha1'], 'revisions', 'Revision');
export const DEPLOYMENTS = vr('apps', ['v1'], 'deployments', 'Deployment');
export const INGRESSES = vr('networking.k8s.io', ['v1', 'v1beta1'], 'ingresses', 'Ingress');
export const HTTP_ROUTES = vr('gateway.networking.k8s.io', ['v1', 'v1beta1'], 'httproutes', 'HTTPRoute');
export const HORIZONTAL_POD_AUTOSCALERS = vr(
  'autoscaling',
  ['v2', 'v2beta2', 'v1'],
  'horizontalpodautoscalers',
  'HorizontalPodAutoscaler',
);
export const ENVOY_FILTERS = vr('networking.istio.io', ['v1alpha3'], 'envoyfilters', 'EnvoyFilter');
export const AUTHORIZATION_POLICIES = vr(
  'security.istio.io',
  ['v1', 'v1beta1'],
  'authorizationpolicies',
  'AuthorizationPolicy',
);
/** Istio <= 1.5 origin authentication (JWT) policies. */
export const AUTHENTICATION_POLICIES = vr('authentication.istio.io', ['v1alpha1'], 'policies', 'Policy');
export const SERVICE_ROLE_BINDINGS = vr('rbac.istio.io', ['v1alpha1'], 'servicerolebindings', 'ServiceRoleBinding');
export const MUTATING_WEBHOOKS = vr(
  'admissionregistration.k8s.io',
  ['v1', 'v1beta1'],
  'mutatingwebhookconfigurations',
  'MutatingWebhookConfiguration',
  false,
);

/**
 * KServe's LLMInferenceService (its llmisvc component, 0.16+), most preferred first: v1alpha2 from
 * 0.17, v1alpha1 from 0.16 (still served, converted, by later releases).
 */
export const LLM_INFERENCE_SERVICE_VERSIONS: readonly CustomResource[] = [
  cr('serving.kserve.io', 'v1alpha2', 'llminferenceservices', 'LLMInferenceService'),
  cr('serving.kserve.io', 'v1alpha1', 'llminferenceservices', 'LLMInferenceService'),
];
/** The labels the llmisvc controller puts on every workload and scheduler (EPP) pod and Deployment of a service. */
export function llmInferenceServiceSelector(name: string): string {
  return `app.kubernetes.io/part-of=llminferenceservice,app.kubernetes.io/name=${name}`;
}
export const LEADER_WORKER_SETS = vr('leaderworkerset.x-k8s.io', ['v1'], 'leaderworkersets', 'LeaderWorkerSet');
/** The Inference Extension's InferencePool: GA group (1.0+) and the alpha one KServe still creates where served. */
export const INFERENCE_POOLS = vr('inference.networking.k8s.io', ['v1'], 'inferencepools', 'InferencePool');
export const INFERENCE_POOLS_ALPHA = vr(
  'inference.networking.x-k8s.io',
  ['v1alpha2', 'v1alpha1'],
  'inferencepools',
  'InferencePool',
);
export const GATEWAYS = vr('gateway.networking.k8s.io', ['v1', 'v1beta1'], 'gateways', 'Gateway');
/** KServe's local model cache (serving.kserve.io v1alpha1, cluster-scoped from 0.15) and each node's download state. */
export const LOCAL_MODEL_CACHES = vr('serving.kserve.io', ['v1alpha1'], 'localmodelcaches', 'LocalModelCache', false);
export const LOCAL_MODEL_NODE_GROUPS = vr(
  'serving.kserve.io',
  ['v1alpha1'],
  'localmodelnodegroups',
  'LocalModelNodeGroup',
  false,
);
export const LOCAL_MODEL_NODES = vr('serving.kserve.io', ['v1alpha1'], 'localmodelnodes', 'LocalModelNode', false);
