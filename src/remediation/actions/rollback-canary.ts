/**
 * rollback-canary (CANARY_UNHEALTHY; `/isvc rollout NAME rollback`): sends all traffic to the last
 * ready revision. v1beta1: `spec.predictor.canaryTrafficPercent: 0` (KServe routes 100% to the
 * previously rolled-out revision; the new spec stays for a later fix). v1alpha2: removes
 * `spec.canary` and `spec.canaryTrafficPercent`. Standard mode (KServe 0.20, `spec.canary[]`): removes
 * the canary's entry (all of them when none is named), as KServe documents the rollback: the
 * controller deletes its Deployment and the HTTPRoute sends everything to the stable one; the list
 * is replaced whole, which is safe because the patch is pinned to the resourceVersion it was read at
 * and every other entry is sent as it is. Risk: medium (the canary stops getting traffic; on v1alpha2
 * and Standard its spec is removed from the object, shown in the proposal).
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
import { canaryShape, chosenCanary, describeSplit } from './canary-shape.js';

const params = z
  .object({ previous: z.string().nullish(), canary: z.string().nullish(), from: z.number().nullish() })
  .passthrough();
type Params = z.infer<typeof params>;

interface OfferInput {
  previous: string;
  canary: string;
  percent: number | undefined;
  /** A Standard-mode canary: its entry in spec.canary. */
  standard?: { index: number; name: string };
}

function offerDiff(input: OfferInput): string[] {
  if (input.standard)
    return [
      `  spec.canary[${input.standard.index}] (predictor.name ${input.standard.name}, trafficPercent ${input.percent ?? 0}):`,
      `-   (canary ${input.standard.name}, Deployment ${input.canary})`,
      `+   (removed: ${input.previous} serves all traffic)`,
    ];
  return input.percent !== undefined
    ? ['  spec.predictor.canaryTrafficPercent:', `-   ${input.percent}`, '+   0']
    : ['  spec.canary:', '-   (canary endpoint)', '+   (removed)'];
}

/** The offer on a failing canary: all traffic back to `previous` (`percent`: the canary's share now, undefined on v1alpha2). */
function offer(ctx: OfferContext, input: OfferInput): Remediation {
  const offered: ActionOffer<Params> = {
    action: 'rollback-canary',
    summary: input.standard
      ? `Remove canary ${input.standard.name} (spec.canary[${input.standard.index}]): all traffic to the stable Deployment ${input.previous}`
      : `Send all traffic to the last ready revision ${input.previous}`,
    target: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
    diff: offerDiff(input),
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
    if (shape.kind === 'standard') {
      if (shape.canaries.length === 0)
        throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', 'spec.canary is empty: there is no canary');
      const gone = p.canary ? [chosenCanary(shape, p.canary)] : shape.canaries;
      const kept = shape.entries.filter((_, i) => !gone.some((c) => c.index === i));
      return {
        patch: { spec: { canary: kept.length ? kept : null } },
        summary: `Roll back: remove ${gone.map((c) => `canary ${c.name} (spec.canary[${c.index}], trafficPercent ${c.trafficPercent})`).join(', ')}; all traffic to the stable Deployment ${shape.stable}`,
        risk: 'medium',
        riskNote: `KServe deletes Deployment ${gone.map((c) => c.deployment).join(', ')} and its pods; the entry leaves the object (the proposal shows it, to add it back once fixed).`,
      };
    }
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

export const rollbackCanary: OfferingAction<Params, OfferInput> = { ...patch, offer };
