/**
 * Where a field of one of the service's components lives in its spec, as a person edits it:
 * `spec.predictor.model.storageUri`, `spec.default.predictor.tensorflow.storageUri` (v1alpha2), a
 * custom container's `env[STORAGE_URI]`. Next steps name these paths.
 */
import { componentsOf } from '../kube/inference-service-view.js';
import type { InferenceServiceObject } from '../kube/schemas.js';

export function fieldPathOf(isvc: InferenceServiceObject, component: string | undefined, key: string): string {
  const views = componentsOf(isvc);
  const view = views.find((c) => c.name === (component ?? 'predictor') && !c.canary) ?? views.find((c) => c.name === component) ?? views[0];
  if (!view) return `spec.${component ?? 'predictor'}.${key}`;
  const model = view.modelPath.join('.');
  const base = view.modelPath.slice(0, view.modelPath.indexOf(view.name) + 1).join('.');
  if (key === 'resources') return view.resourcesPath.join('.');
  if (key === 'storageUri' && view.modelPath.includes('containers')) return `${model}.env[STORAGE_URI]`;
  if (['serviceAccountName', 'canaryTrafficPercent', 'nodeSelector', 'tolerations', 'minReplicas', 'maxReplicas'].includes(key)) return `${base}.${key}`;
  return `${model}.${key}`;
}
