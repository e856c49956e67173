/**
 * The next-step context of a diagnosed InferenceService: its names, a selector for its pods, and
 * where each field of its components lives in its spec, read from the object itself (v1beta1 and
 * v1alpha2, framework blocks, custom containers).
 */
import { genericNextStepContext, type ComponentField, type NextStepContext } from '../findings/next-step-context.js';
import { apiGroupOf, componentsOf, type ComponentView } from '../kube/inference-service-view.js';
import { inferenceServiceLabel } from '../kube/resources.js';
import type { DiagnosisTarget } from './playbook.js';

function fieldOf(view: ComponentView, field: ComponentField, v1alpha2: boolean): string {
  const base = view.modelPath.slice(0, view.modelPath.indexOf(view.name) + 1).join('.');
  const model = view.modelPath.join('.');
  switch (field) {
    case 'resources':
      return view.resourcesPath.join('.');
    case 'storageUri':
      return view.modelPath.includes('containers') ? `${model}.env[STORAGE_URI]` : `${model}.storageUri`;
    case 'serviceAccountName':
      return `${base}.serviceAccountName`;
    case 'canaryTrafficPercent':
      return v1alpha2 ? 'spec.canaryTrafficPercent' : `${base}.canaryTrafficPercent`;
    default:
      return `${model}.${field}`;
  }
}

export function serviceNextStepContext(target: DiagnosisTarget, knativeNamespace: string): NextStepContext {
  const components = componentsOf(target.isvc);
  const v1alpha2 = components.some((c) => c.modelPath[1] === 'default');
  const generic = genericNextStepContext(target, knativeNamespace);
  return {
    ...generic,
    podSelector: `${inferenceServiceLabel(apiGroupOf(target.apiVersion))}=${target.name}`,
    fieldPath: (component, field) => {
      const view = components.find((c) => c.name === (component ?? 'predictor') && !c.canary) ?? components.find((c) => c.name === component);
      return view ? fieldOf(view, field, v1alpha2) : generic.fieldPath(component, field);
    },
  };
}
