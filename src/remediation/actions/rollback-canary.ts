/**
 * rollback-canary (CANARY_UNHEALTHY; `/isvc rollout NAME rollback`): sends all traffic to the last
 * ready revision. v1beta1: `spec.predictor.canaryTrafficPercent: 0` (KServe routes 100% to the
 * previously rolled-out revision; the new spec stays for a later fix). v1alpha2: removes
 * `spec.canary` and `spec.canaryTrafficPercent`. Risk: medium (the canary stops getting traffic;
 * on v1alpha2 its spec is removed from the object).
 * RBAC: get/patch inferenceservices.
 */
import { paramText } from '../param-text.js';
import { z } from 'zod';
import { RemediationError } from '../../changes/remediation-error.js';
import type { Remediation } from '../../findings/types.js';
import { refOf } from '../../kube/inference-service-view.js';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import type { ActionOffer, OfferContext, OfferingAction } from '../types.js';
import { canaryShape, describeSplit } from './canary-shape.js';

const params = z
  .object({ previous: z.string().nullish(), canary: z.string().nullish(), from: z.number().nullish() })
  .passthrough();
type Params = z.infer<typeof params>;

/** The offer on a failing canary: all traffic back to `previous` (`percent`: the canary's share now, undefined on v1alpha2). */
function offer(
  ctx: OfferContext,
  input: { previous: string; canary: string; percent: number | undefined },
): Remediation {
  const offered: ActionOffer<Params> = {
    action: 'rollback-canary',
    summary: `Send all traffic to the last ready revision ${input.previous}`,
    target: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
    diff:
      input.percent !== undefined
        ? ['  spec.predictor.canaryTrafficPercent:', `-   ${input.percent}`, '+   0']
        : ['  spec.canary:', '-   (canary endpoint)', '+   (removed)'],
    needsApproval: true,
    params: { previous: input.previous, canary: input.canary, from: input.percent ?? null },
  };
  return offered;
}

const patch = patchAction<Params>({
  id: 'rollback-canary',
  title: 'Roll back the canary',
  label: (_plan, q) => (paramText(q.previous) ? `Roll back to ${paramText(q.previous)}` : 'Roll back the canary'),
  params,
  locate: locateInferenceService,
  build(live, p) {
    const shape = canaryShape(live);
    const to = p.previous ? ` (${p.previous})` : '';
    if (shape.kind === 'v1beta1') {
      if (shape.percent === 0)
        throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', 'canaryTrafficPercent is already 0');
      return {
        patch: { spec: { predictor: { canaryTrafficPercent: 0 } } },
        summary: `Roll back: all traffic to the last ready revision${to}, from ${describeSplit(shape.percent)}`,
        risk: 'medium',
        riskNote:
          'The canary stops receiving traffic at once; its spec stays in the object (fix it, then promote or set a split).',
      };
    }
    if (!shape.canary && shape.percent === undefined)
      throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', 'there is no canary to roll back');
    return {
      patch: { spec: { canary: null, canaryTrafficPercent: null } },
      summary: `Roll back: drop the canary endpoint, all traffic to the default${to}, from ${describeSplit(shape.percent)}`,
      risk: 'medium',
      riskNote:
        'The canary endpoint and its spec are removed from the InferenceService (v1alpha2 keeps no inactive canary).',
    };
  },
});

export const rollbackCanary: OfferingAction<Params, { previous: string; canary: string; percent: number | undefined }> =
  { ...patch, offer };
