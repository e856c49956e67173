/**
 * Where a field of one of the service's components lives in its spec, as a person edits it, in
 * this object: `spec.predictor.model.storageUri`, `spec.default.predictor.tensorflow.storageUri`
 * (v1alpha2), a custom container's `env[STORAGE_URI]`, the component's `storageUris` where the spec
 * lists several models, and for a revision of a v1alpha2 canary endpoint the canary's own block
 * (`spec.canary.predictor…`), not the healthy default's; a v1alpha2 custom predictor's container fields
 * under `custom.container` (its CustomSpec wraps a v1.Container). Next steps name these paths.
 */
import { componentsOf, type ComponentView } from '../kube/inference-service-view.js';
import type { InferenceServiceObject } from '../kube/schemas.js';

const COMPONENT_KEYS = [
  'serviceAccountName',
  'canaryTrafficPercent',
  'nodeSelector',
  'tolerations',
  'minReplicas',
  'maxReplicas',
  'volumes',
  'runtimeClassName',
];

/** The component's view a finding about `revision` concerns: a v1alpha2 canary revision is <service>-<component>-canary-<suffix>. */
export function componentViewOf(
  isvc: InferenceServiceObject,
  component: string | undefined,
  revision?: string,
): ComponentView | undefined {
  const views = componentsOf(isvc);
  const name = component ?? 'predictor';
  const canary = revision?.startsWith(`${isvc.metadata.name}-${name}-canary-`) ?? false;
  return (
    views.find((c) => c.name === name && c.canary === canary) ??
    views.find((c) => c.name === name && !c.canary) ??
    views.find((c) => c.name === component) ??
    views[0]
  );
}

/** The object the model path names (the framework block or the custom container). */
function modelBlock(view: ComponentView): Record<string, unknown> {
  let at: unknown = view.spec;
  for (const part of view.modelPath.slice(view.modelPath.indexOf(view.name) + 1))
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined;
  return typeof at === 'object' && at !== null ? (at as Record<string, unknown>) : {};
}

export function fieldPathOf(
  isvc: InferenceServiceObject,
  component: string | undefined,
  key: string,
  revision?: string,
): string {
  const view = componentViewOf(isvc, component, revision);
  if (!view) return `spec.${component ?? 'predictor'}.${key}`;
  const model = view.modelPath.join('.');
  const base = view.modelPath.slice(0, view.modelPath.indexOf(view.name) + 1).join('.');
  if (key === 'resources') return view.resourcesPath.join('.');
  if (key === 'storageUri') {
    if ('storageUris' in view.spec) return `${base}.storageUris`;
    if (view.userContainer) return `${model}.env[STORAGE_URI]`;
    if ('storage_uri' in modelBlock(view)) return `${model}.storage_uri`;
  }
  // v1alpha2 splits traffic on the spec, between its default and canary endpoints
  if (
    key === 'canaryTrafficPercent' &&
    view.modelPath[1] !== undefined &&
    ['default', 'canary'].includes(view.modelPath[1])
  )
    return 'spec.canaryTrafficPercent';
  if (COMPONENT_KEYS.includes(key)) return `${base}.${key}`;
  return `${model}.${key}`;
}
