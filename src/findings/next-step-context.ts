/**
 * What a next-step template fills in: the service's names, and where a field of one of its
 * components lives in its spec (the path differs between API versions and model blocks, e.g.
 * `spec.predictor.sklearn.storageUri` or `spec.default.predictor.tensorflow.storageUri`).
 */
export type ComponentField = 'storageUri' | 'resources' | 'image' | 'runtime' | 'runtimeVersion' | 'serviceAccountName' | 'readinessProbe' | 'canaryTrafficPercent';

export interface NextStepContext {
  namespace: string;
  name: string;
  /** A label selector for the service's pods, e.g. "serving.kserve.io/inferenceservice=sklearn-iris". */
  podSelector: string;
  /** Namespace of the Knative Serving control plane. */
  knativeNamespace: string;
  /** The path of a field of a component (the predictor when none is named). */
  fieldPath(component: string | undefined, field: ComponentField): string;
}

/** Paths when the InferenceService itself is not at hand (not found, not readable). */
export function genericNextStepContext(target: { namespace: string; name: string }, knativeNamespace: string): NextStepContext {
  return {
    namespace: target.namespace,
    name: target.name,
    podSelector: `serving.kserve.io/inferenceservice=${target.name}`,
    knativeNamespace,
    fieldPath: (component, field) => `spec.${component ?? 'predictor'}.${field}`,
  };
}
