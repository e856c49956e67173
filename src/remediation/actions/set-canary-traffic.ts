/**
 * set-canary-traffic (`/isvc rollout NAME 90/10`): sets the canary's share of traffic on the
 * InferenceService itself (`canaryTrafficPercent`: on spec.predictor for v1beta1, on spec for
 * v1alpha2, which needs a canary endpoint). Risk: medium (that share of requests reaches the canary).
 * RBAC: get/patch inferenceservices.
 */
import { z } from 'zod';
import { RemediationError } from '../../changes/remediation-error.js';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import { canaryShape, describeSplit } from './canary-shape.js';

const params = z.object({ canaryPercent: z.number().int().min(0).max(100) });

export const setCanaryTraffic = patchAction<z.infer<typeof params>>({
  id: 'set-canary-traffic',
  title: 'Set the canary traffic split',
  params,
  locate: locateInferenceService,
  build(live, p) {
    const shape = canaryShape(live);
    if (shape.percent === p.canaryPercent) throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', `the split is already ${describeSplit(p.canaryPercent)}`);
    if (shape.kind === 'v1alpha2' && !shape.canary) throw new RemediationError('REMEDIATION_NOT_APPLICABLE', 'this v1alpha2 InferenceService has no canary endpoint to send traffic to');
    const patch = shape.kind === 'v1beta1' ? { spec: { predictor: { canaryTrafficPercent: p.canaryPercent } } } : { spec: { canaryTrafficPercent: p.canaryPercent } };
    return {
      patch,
      summary: `Set the split to ${describeSplit(p.canaryPercent)} (from ${describeSplit(shape.percent)})`,
      risk: 'medium',
      riskNote: `${p.canaryPercent}% of requests reach the canary revision.`,
    };
  },
});
