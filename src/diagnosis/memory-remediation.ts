/**
 * The raise-memory-limit offer on an OOM_KILLED finding, computed exactly as the action's plan will
 * compute it (src/remediation/memory-cap.ts): the failing component's limit in the InferenceService
 * spec doubled, capped by the configured maximum (`DiagnosisConfig.maxMemoryBytes`, from
 * `remediation.maxMemory`) and the namespace's LimitRange (read through the memoised reader: one
 * request per diagnosis, and only when an OOM is found), with the request raised when it must be.
 * Already at the cap: a manual fix (REMEDIATION_AT_LIMIT), no button.
 *
 * RBAC: list limitranges.
 */
import { componentsOf, refOf } from '../kube/inference-service-view.js';
import { diffLines } from '../remediation/field-changes.js';
import { describeMemoryChange, memoryFieldChanges, memoryPathPatchable, raisedMemory, type MemoryChange } from '../remediation/memory-cap.js';
import { RemediationError } from '../remediation/remediation-error.js';
import type { DiagnosisContext } from './playbook.js';
import type { Remediation } from '../findings/types.js';


/** The offer for the component that was OOMKilled (the predictor when unknown); null without one. */
export async function raiseMemoryRemediation(ctx: DiagnosisContext, componentName: string | undefined): Promise<Remediation | null> {
  const components = componentsOf(ctx.target.isvc);
  const component = components.find((c) => c.name === (componentName ?? 'predictor') && !c.canary) ?? components[0];
  if (!component) return null;
  const from = { ...(component.memoryLimit ? { limit: component.memoryLimit } : {}), ...(component.memoryRequest ? { request: component.memoryRequest } : {}) };
  const target = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const resources = component.resourcesPath.join('.');
  if (!memoryPathPatchable(component.resourcesPath)) {
    return { action: 'manual', summary: `Raise the memory limit at ${resources}.limits.memory by hand (it is inside a container list, which a merge patch cannot reach)`, target, needsApproval: false, manual: `kubectl -n ${ctx.target.namespace} edit inferenceservice ${ctx.target.name}   # ${resources}.limits.memory` };
  }
  let change: MemoryChange;
  try {
    change = raisedMemory({ ...from, maxBytes: ctx.config.maxMemoryBytes, limitRanges: await ctx.reader.limitRanges(ctx.target.namespace) });
  } catch (error) {
    if (!(error instanceof RemediationError)) throw error;
    return { action: 'manual', summary: `No automatic raise (${error.code}): ${error.message}`, target, needsApproval: false, manual: `# ${resources}.limits.memory is ${from.limit ?? from.request}\nkubectl -n ${ctx.target.namespace} get limitrange -o yaml   # the namespace's cap` };
  }
  return {
    action: 'raise-memory-limit',
    summary: describeMemoryChange(component.name, from, change),
    target,
    diff: diffLines(memoryFieldChanges(component.resourcesPath, from, change)),
    needsApproval: true,
    params: { component: component.name, path: [...component.resourcesPath], from: from.limit ?? null, to: change.limit },
  };
}
