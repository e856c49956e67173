import type { z } from 'zod';
import { knativeServiceSchema, revisionSchema, type KubeObject } from './schemas.js';

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

/** A kind in KINDS: where it lives, and optionally the schema its objects parse with (else kubeObjectSchema). */
export interface KindEntry extends VersionedResource {
  schema?: z.ZodType<unknown>;
}

/**
 * The kinds a diagnosis reads by name, beyond the core ones (pods, events, …) and the InferenceService:
 * `reader.listKind('VirtualService', ns)`, `reader.readKind('Gateway', ns, name)`. A check that reads a
 * new kind adds its line here (group, the versions to try most preferred first, plural, namespaced),
 * not a reader method. Names are the API's kinds, prefixed where two groups share one
 * (KnativeService, IstioGateway, InferencePoolAlpha).
 */
export const KINDS = {
  KnativeService: {
    ...vr('serving.knative.dev', ['v1', 'v1beta1', 'v1alpha1'], 'services', 'Service'),
    schema: knativeServiceSchema,
  },
  Revision: {
    ...vr('serving.knative.dev', ['v1', 'v1beta1', 'v1alpha1'], 'revisions', 'Revision'),
    schema: revisionSchema,
  },
  ServingRuntime: vr('serving.kserve.io', ['v1alpha1'], 'servingruntimes', 'ServingRuntime'),
  ClusterServingRuntime: vr(
    'serving.kserve.io',
    ['v1alpha1'],
    'clusterservingruntimes',
    'ClusterServingRuntime',
    false,
  ),
  /** KServe's local model cache (cluster-scoped from 0.15) and each node's download state. */
  LocalModelCache: vr('serving.kserve.io', ['v1alpha1'], 'localmodelcaches', 'LocalModelCache', false),
  /**
   * KServe 0.18+'s namespace-scoped cache: the same spec and status as LocalModelCache, in the services'
   * namespace. The defaulter prefers it over a cluster-scoped cache whose sourceModelUri matches too, and
   * labels the service with both its name (`localmodel`) and namespace (`localmodel-namespace`). A
   * LocalModelNode keys its state of such a model `<namespace>/<name>`, its download Jobs carry
   * `modelNamespace=<namespace>` next to model and node, and the download claim in the Jobs' namespace is
   * `<name>-<node group>-<namespace>-download` (diagnosis/local-model-download.ts).
   */
  LocalModelNamespaceCache: vr(
    'serving.kserve.io',
    ['v1alpha1'],
    'localmodelnamespacecaches',
    'LocalModelNamespaceCache',
  ),
  LocalModelNodeGroup: vr('serving.kserve.io', ['v1alpha1'], 'localmodelnodegroups', 'LocalModelNodeGroup', false),
  LocalModelNode: vr('serving.kserve.io', ['v1alpha1'], 'localmodelnodes', 'LocalModelNode', false),
  Deployment: vr('apps', ['v1'], 'deployments', 'Deployment'),
  HorizontalPodAutoscaler: vr(
    'autoscaling',
    ['v2', 'v2beta2', 'v1'],
    'horizontalpodautoscalers',
    'HorizontalPodAutoscaler',
  ),
  Ingress: vr('networking.k8s.io', ['v1', 'v1beta1'], 'ingresses', 'Ingress'),
  /** Cluster-scoped (networking.k8s.io/v1 from Kubernetes 1.19, v1beta1 in 1.18): which controller serves an Ingress of each class. */
  IngressClass: vr('networking.k8s.io', ['v1', 'v1beta1'], 'ingressclasses', 'IngressClass', false),
  MutatingWebhookConfiguration: vr(
    'admissionregistration.k8s.io',
    ['v1', 'v1beta1'],
    'mutatingwebhookconfigurations',
    'MutatingWebhookConfiguration',
    false,
  ),
  /** The Gateway API's Gateway and HTTPRoute. */
  Gateway: vr('gateway.networking.k8s.io', ['v1', 'v1beta1'], 'gateways', 'Gateway'),
  HTTPRoute: vr('gateway.networking.k8s.io', ['v1', 'v1beta1'], 'httproutes', 'HTTPRoute'),
  /** Istio's networking API. */
  IstioGateway: vr('networking.istio.io', ['v1alpha3'], 'gateways', 'Gateway'),
  VirtualService: vr('networking.istio.io', ['v1alpha3'], 'virtualservices', 'VirtualService'),
  EnvoyFilter: vr('networking.istio.io', ['v1alpha3'], 'envoyfilters', 'EnvoyFilter'),
  AuthorizationPolicy: vr('security.istio.io', ['v1', 'v1beta1'], 'authorizationpolicies', 'AuthorizationPolicy'),
  /** Istio <= 1.5 origin authentication (JWT) policies, and its RBAC API. */
  IstioAuthenticationPolicy: vr('authentication.istio.io', ['v1alpha1'], 'policies', 'Policy'),
  ServiceRoleBinding: vr('rbac.istio.io', ['v1alpha1'], 'servicerolebindings', 'ServiceRoleBinding'),
  ClusterRbacConfig: vr('rbac.istio.io', ['v1alpha1'], 'clusterrbacconfigs', 'ClusterRbacConfig', false),
  LeaderWorkerSet: vr('leaderworkerset.x-k8s.io', ['v1'], 'leaderworkersets', 'LeaderWorkerSet'),
  /** The Inference Extension's InferencePool: GA group (1.0+) and the alpha one KServe still creates where served. */
  InferencePool: vr('inference.networking.k8s.io', ['v1'], 'inferencepools', 'InferencePool'),
  InferencePoolAlpha: vr('inference.networking.x-k8s.io', ['v1alpha2', 'v1alpha1'], 'inferencepools', 'InferencePool'),
} satisfies Record<string, KindEntry>;

export type KindName = keyof typeof KINDS;

/** What an object of the kind parses to: its schema's type, else a KubeObject. */
export type ObjectOfKind<K extends KindName> = (typeof KINDS)[K] extends { schema: z.ZodType<infer T> }
  ? T
  : KubeObject;

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
