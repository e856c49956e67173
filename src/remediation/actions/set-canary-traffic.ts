/**
 * set-canary-traffic (`/isvc rollout NAME 90/10`): sets the canary's share of traffic on the
 * InferenceService itself (`canaryTrafficPercent`: on spec.predictor for v1beta1, on spec for
 * v1alpha2, which needs a canary endpoint; Standard mode: `spec.canary[i].trafficPercent` of the one
 * canary, the list sent whole with every other field as it is, pinned to the resourceVersion).
 * Risk: medium (that share of requests reaches the canary).
 * RBAC: get/patch inferenceservices.
 */
import { paramText } from '../param-text.js';
import { z } from 'zod';
import { RemediationError } from '../../changes/remediation-error.js';
import { failingCanaryState } from '../canary-state.js';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import { canaryShape, chosenCanary, describeSplit } from './canary-shape.js';

const params = z.object({ canaryPercent: z.number().int().min(0).max(100), canary: z.string().nullish() });

export const setCanaryTraffic = patchAction<z.infer<typeof params>>({
  id: 'set-canary-traffic',
  title: 'Set the canary traffic split',
  label: (_plan, q) => (paramText(q.canaryPercent) ? `Set canary to ${paramText(q.canaryPercent)}%` : 'Set the split'),
  params,
  locate: locateInferenceService,
  async build(live, p, ctx) {
    const shape = canaryShape(live);
    // more traffic to a failing canary: its state is said before the change
    const failing = p.canaryPercent > (shape.percent ?? 0) ? await failingCanaryState(ctx, live) : null;
    if (shape.kind !== 'standard' && shape.percent === p.canaryPercent)
      throw new RemediationError(
        'REMEDIATION_NOTHING_TO_CHANGE',
        `the split is already ${describeSplit(p.canaryPercent)}`,
      );
    if (shape.kind === 'standard') {
      const c = chosenCanary(shape, p.canary);
      if (c.trafficPercent === p.canaryPercent)
        throw new RemediationError(
          'REMEDIATION_NOTHING_TO_CHANGE',
          `spec.canary[${c.index}].trafficPercent is already ${p.canaryPercent}`,
        );
      const others = shape.canaries.filter((x) => x !== c).reduce((n, x) => n + x.trafficPercent, 0);
      if (others + p.canaryPercent > 100)
        throw new RemediationError(
          'REMEDIATION_NOT_APPLICABLE',
          `the other canaries take ${others}%: the canaries' trafficPercent may add up to 100 at most`,
        );
      const entries = shape.entries.map((e, i) => (i === c.index ? { ...e, trafficPercent: p.canaryPercent } : e));
      return {
        patch: { spec: { canary: entries } },
        summary: `Set spec.canary[${c.index}].trafficPercent (canary ${c.name}) to ${p.canaryPercent}: ${describeSplit(p.canaryPercent + others)} (from ${describeSplit(shape.percent)})`,
        risk: failing ? 'high' : 'medium',
        riskNote: failing
          ? `The canary is failing (${failing}): KServe routes it ${p.canaryPercent}% once its Deployment is ready.`
          : `${p.canaryPercent}% of requests reach Deployment ${c.deployment}.`,
        ...(failing ? { targetState: failing } : {}),
      };
    }
    if (shape.kind === 'v1alpha2' && !shape.canary)
      throw new RemediationError(
        'REMEDIATION_NOT_APPLICABLE',
        'this v1alpha2 InferenceService has no canary endpoint to send traffic to',
      );
    const patch =
      shape.kind === 'v1beta1'
        ? { spec: { predictor: { canaryTrafficPercent: p.canaryPercent } } }
        : { spec: { canaryTrafficPercent: p.canaryPercent } };
    return {
      patch,
      summary: `Set the split to ${describeSplit(p.canaryPercent)} (from ${describeSplit(shape.percent)})`,
      risk: failing ? 'high' : 'medium',
      riskNote: failing
        ? `The canary is failing (${failing}): ${p.canaryPercent}% of requests would reach it.`
        : `${p.canaryPercent}% of requests reach the canary revision.`,
      ...(failing ? { targetState: failing } : {}),
    };
  },
});
