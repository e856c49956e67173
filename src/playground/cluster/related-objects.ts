/**
 * The objects that make up one InferenceService in the simulated cluster, found as its controllers
 * label them: pods, Knative Services / Configurations / Routes / Revisions (label
 * `serving.kserve.io/inferenceservice` or `serving.kubeflow.org/inferenceservice` = its name), and the
 * LLMInferenceServices the cluster panel lists beside them.
 */
import type { ObjectStore } from '../../simulator/simulator.js';

export type KubeObject = ReturnType<ObjectStore['upsert']>;

export const ISVC_VERSIONS = [
  'serving.kserve.io/v1beta1',
  'serving.kubeflow.org/v1beta1',
  'serving.kubeflow.org/v1alpha2',
] as const;
/** LLMInferenceService versions, most preferred first (one stored object is served at each). */
export const LLMISVC_VERSIONS = ['serving.kserve.io/v1alpha2', 'serving.kserve.io/v1alpha1'] as const;
export const KNATIVE_KINDS = ['Service', 'Configuration', 'Route', 'Revision'] as const;
const OWNER_LABELS = ['serving.kserve.io/inferenceservice', 'serving.kubeflow.org/inferenceservice'];

export function ownedBy(object: KubeObject, name: string): boolean {
  const labels = (object.metadata.labels ?? {}) as Record<string, string>;
  return OWNER_LABELS.some((l) => labels[l] === name);
}

export function findIsvc(store: ObjectStore, namespace: string, name: string): KubeObject | undefined {
  for (const version of ISVC_VERSIONS) {
    const found = store.get(version, 'InferenceService', namespace, name);
    if (found) return found;
  }
  return undefined;
}

export function allIsvcs(store: ObjectStore): KubeObject[] {
  return ISVC_VERSIONS.flatMap((v) => store.list(v, 'InferenceService'));
}

export function findLlmIsvc(store: ObjectStore, namespace: string, name: string): KubeObject | undefined {
  for (const version of LLMISVC_VERSIONS) {
    const found = store.get(version, 'LLMInferenceService', namespace, name);
    if (found) return found;
  }
  return undefined;
}

/** Every LLMInferenceService once, at the most preferred version the cluster serves. */
export function allLlmIsvcs(store: ObjectStore): KubeObject[] {
  const seen = new Set<string>();
  return LLMISVC_VERSIONS.flatMap((v) => store.list(v, 'LLMInferenceService')).filter((o) => {
    const key = `${o.metadata.namespace}/${o.metadata.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function podsOf(store: ObjectStore, namespace: string, name: string): KubeObject[] {
  return store.list('v1', 'Pod', namespace).filter((p) => ownedBy(p, name));
}

export function knativeObjectsOf(store: ObjectStore, namespace: string, name: string): KubeObject[] {
  return KNATIVE_KINDS.flatMap((kind) =>
    store.list('serving.knative.dev/v1', kind, namespace).filter((o) => ownedBy(o, name)),
  );
}

export function revisionOf(pod: KubeObject): string | undefined {
  return ((pod.metadata.labels ?? {}) as Record<string, string>)['serving.knative.dev/revision'];
}
