/**
 * What a next-step template fills in: the service's names, and where a field of one of its
 * components lives in its spec (the path differs between API versions and model blocks, e.g.
 * `spec.predictor.sklearn.storageUri` or `spec.default.predictor.tensorflow.storageUri`).
 */
export type ComponentField =
  | 'storageUri'
  | 'resources'
  | 'image'
  | 'runtime'
  | 'runtimeVersion'
  | 'serviceAccountName'
  | 'readinessProbe'
  | 'canaryTrafficPercent'
  | 'args'
  | 'env'
  | 'volumes'
  | 'volumeMounts'
  | 'nodeSelector'
  | 'runtimeClassName'
  | 'tolerations'
  | 'protocolVersion';

export interface NextStepContext {
  namespace: string;
  name: string;
  /** A label selector for the service's pods, e.g. "serving.kserve.io/inferenceservice=sklearn-iris". */
  podSelector: string;
  /** Namespace of the Knative Serving control plane. */
  knativeNamespace: string;
  /**
   * The path of a field of a component (the predictor when none is named), as it exists in this
   * object; for a revision of a v1alpha2 canary endpoint, the canary's own block.
   */
  fieldPath(component: string | undefined, field: ComponentField, revision?: string): string;
}

/** Paths when the InferenceService itself is not at hand (not found, not readable). */
export function genericNextStepContext(
  target: { namespace: string; name: string },
  knativeNamespace: string,
): NextStepContext {
  return {
    namespace: target.namespace,
    name: target.name,
    podSelector: `serving.kserve.io/inferenceservice=${target.name}`,
    knativeNamespace,
    fieldPath: (component, field) => `spec.${component ?? 'predictor'}.${field}`,
  };
}

/** "kubectl edit inferenceservice NAME -n NS": how every next step that changes the service's spec begins. */
export const editCommand = (c: { name: string; namespace: string }) =>
  `kubectl edit inferenceservice ${c.name} -n ${c.namespace}`;
