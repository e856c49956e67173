/**
 * Where a field of one of the service's components lives in its spec, as a person edits it, in
 * this object: `spec.predictor.model.storageUri`, `spec.default.predictor.tensorflow.storageUri`
 * (v1alpha2), a custom container's `env[STORAGE_URI]`, the component's `storageUris` where the spec
 * lists several models, and for a revision of a v1alpha2 canary endpoint the canary's own block
 * (`spec.canary.predictor…`), not the healthy default's; for the Deployment of a Standard-mode canary
 * (KServe 0.20) its entry `spec.canary[i].predictor…`, with the values the controller runs it with
 * (the stable predictor with the entry's predictor over it); a v1alpha2 custom predictor's container
 * fields under `custom.container` (its CustomSpec wraps a v1.Container). Next steps name these paths.
 */
import { componentsOf, type ComponentView } from '../kube/inference-service-view.js';
import type { InferenceServiceObject } from '../kube/schemas.js';
import { standardCanaries } from '../kube/standard-canary.js';
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

/** Objects merged key by key, the rest replaced: how the controller lays a canary's predictor over the stable one. */
function overlaid(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObj(v) && isObj(base[k]) ? overlaid(base[k] as Obj, v) : v;
  return out;
}

/** The view of a Standard-mode canary's Deployment (`revision`), at its spec.canary entry. */
function standardCanaryView(isvc: InferenceServiceObject, name: string, revision: string | undefined) {
  if (name !== 'predictor' || !revision) return undefined;
  const c = standardCanaries(isvc).find((x) => x.deployment === revision);
  const stable = isObj(isvc.spec) && isObj(isvc.spec.predictor) ? isvc.spec.predictor : {};
  if (!c) return undefined;
  const [view] = componentsOf({
    ...isvc,
    spec: { predictor: overlaid(stable, c.predictor) },
  } as InferenceServiceObject);
  if (!view) return undefined;
  const at = (path: string[]) => ['spec', 'canary', String(c.index), ...path.slice(1)];
  return { ...view, canary: true, modelPath: at(view.modelPath), resourcesPath: at(view.resourcesPath) };
}

/** A path as a person reads it: a Standard-mode canary's entry as `spec.canary[i]`. */
const dotted = (path: string[]) => path.join('.').replace(/^spec\.canary\.(\d+)\./, 'spec.canary[$1].');

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
  const name = component ?? 'predictor';
  const standard = standardCanaryView(isvc, name, revision);
  if (standard) return standard;
  const views = componentsOf(isvc);
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
  const model = dotted(view.modelPath);
  const base = dotted(view.modelPath.slice(0, view.modelPath.indexOf(view.name) + 1));
  if (key === 'resources') return dotted(view.resourcesPath);
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
