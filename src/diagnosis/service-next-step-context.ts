/**
 * The next-step context of a diagnosed InferenceService: its names, a selector for its pods, and
 * where each field of its components lives in its spec, read from the object itself (v1beta1 and
 * v1alpha2, framework blocks, custom containers, a canary endpoint's own block).
 */
import { genericNextStepContext, type NextStepContext } from '../findings/next-step-context.js';
import { apiGroupOf, componentsOf } from '../kube/inference-service-view.js';
import { inferenceServiceLabel } from '../kube/resources.js';
import { fieldPathOf } from './field-path.js';
import type { DiagnosisTarget } from './playbook.js';

export function serviceNextStepContext(target: DiagnosisTarget, knativeNamespace: string): NextStepContext {
  const generic = genericNextStepContext(target, knativeNamespace);
  const hasComponents = componentsOf(target.isvc).length > 0;
  return {
    ...generic,
    podSelector: `${inferenceServiceLabel(apiGroupOf(target.apiVersion))}=${target.name}`,
    fieldPath: (component, field, revision) =>
      hasComponents ? fieldPathOf(target.isvc, component, field, revision) : generic.fieldPath(component, field),
  };
}
