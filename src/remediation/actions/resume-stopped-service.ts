/**
 * resume-stopped-service (ISVC_STOPPED): sets the InferenceService's `serving.kserve.io/stop`
 * annotation from "true" to "false" (KServe 0.15+ then recreates its workloads). Offered only when
 * the annotation was set by kubectl or by no manager the object records: when another manager owns
 * it (a GitOps controller such as Argo CD), it would set it back, so nothing is offered and the
 * next step says where to change it. Risk: medium (KServe recreates the Deployment or Knative
 * Service; the pods take their GPUs and memory again and the model loads again).
 * RBAC: get/patch inferenceservices.
 */
import { z } from 'zod';
import { valueAt } from '../../changes/field-changes.js';
import { RemediationError } from '../../changes/remediation-error.js';
import type { Remediation } from '../../findings/types.js';
import { componentsOf, refOf } from '../../kube/inference-service-view.js';
import type { KubeObject } from '../../kube/schemas.js';
import { STOP_ANNOTATION, stopState } from '../../kube/stop-state.js';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import type { ActionOffer, OfferContext, OfferingAction } from '../types.js';

const params = z.object({
  /** The annotation's value when offered ("true", any case). */
  from: z.string().optional(),
});
type Params = z.infer<typeof params>;

/** What the components' pods reserve again once resumed ("predictor: nvidia.com/gpu 1, memory 24Gi"). */
function reserved(isvc: KubeObject): string {
  const parts = componentsOf(isvc)
    .filter((c) => !c.canary)
    .map((c) => {
      const limits = valueAt(isvc, [...c.resourcesPath, 'limits']) as Record<string, unknown> | undefined;
      const gpu = limits?.['nvidia.com/gpu'];
      const held = [
        ...(gpu !== undefined ? [`nvidia.com/gpu ${String(gpu)}`] : []),
        ...(c.memoryLimit ? [`memory ${c.memoryLimit}`] : []),
      ];
      return held.length ? `${c.name}: ${held.join(', ')}` : undefined;
    })
    .filter((s) => s !== undefined);
  return parts.length ? ` (${parts.join('; ')} per pod)` : '';
}

/** `owner`: the manager other than kubectl that set the annotation (the stopped-service playbook's), if any. */
function offer(ctx: OfferContext, input: { owner: string | undefined }): Remediation | null {
  const state = stopState(ctx.target.isvc);
  // a GitOps controller (or any other manager) that owns the annotation would set it back
  if (!state.annotated || input.owner) return null;
  const offered: ActionOffer<Params> = {
    action: 'resume-stopped-service',
    summary: `Resume ${ctx.target.name}: set ${STOP_ANNOTATION} to "false" (KServe recreates the workloads${reserved(ctx.target.isvc)})`,
    target: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
    diff: [`  metadata.annotations.${STOP_ANNOTATION}:`, `-   ${state.value ?? 'true'}`, '+   false'],
    needsApproval: true,
    params: { from: state.value ?? 'true' },
  };
  return offered;
}

export const resumeStoppedService: OfferingAction<Params, { owner: string | undefined }> = {
  ...patchAction<Params>({
    id: 'resume-stopped-service',
    title: 'Resume the stopped InferenceService',
    label: () => 'Resume (stop: "false")',
    params,
    locate: locateInferenceService,
    annotations: [STOP_ANNOTATION],
    build(live) {
      const state = stopState(live);
      if (!state.annotated)
        throw new RemediationError(
          'REMEDIATION_NOTHING_TO_CHANGE',
          `${STOP_ANNOTATION} is ${state.value === undefined ? 'not set' : `"${state.value}"`}: the service is not stopped`,
        );
      return {
        patch: { metadata: { annotations: { [STOP_ANNOTATION]: 'false' } } },
        summary: `Set ${STOP_ANNOTATION} to "false" on ${live.metadata.name}: KServe recreates its workloads`,
        risk: 'medium',
        riskNote: `KServe recreates the Deployment or Knative Service; the pods take their GPUs and memory again${reserved(live)} and the model loads again. Whoever stopped it${state.setBy ? ` (${state.setBy.manager})` : ''} may have wanted those resources free.`,
      };
    },
  }),
  offer,
};
