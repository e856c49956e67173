/**
 * rollback-canary (CANARY_UNHEALTHY; `/isvc rollout NAME rollback`): sends all traffic to the last
 * ready revision. v1beta1: `spec.predictor.canaryTrafficPercent: 0` (KServe routes 100% to the
 * previously rolled-out revision; the new spec stays for a later fix). v1alpha2: removes
 * `spec.canary` and `spec.canaryTrafficPercent`. Risk: medium (the canary stops getting traffic;
 * on v1alpha2 its spec is removed from the object).
 * RBAC: get/patch inferenceservices.
 */
import { z } from 'zod';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import { RemediationError } from '../remediation-error.js';
import { canaryShape, describeSplit } from './canary-shape.js';

const params = z.object({ previous: z.string().nullish(), canary: z.string().nullish() }).passthrough();

export const rollbackCanary = patchAction<z.infer<typeof params>>({
  id: 'rollback-canary',
  title: 'Roll back the canary',
  params,
  locate: locateInferenceService,
  build(live, p) {
    const shape = canaryShape(live);
    const to = p.previous ? ` (${p.previous})` : '';
    if (shape.kind === 'v1beta1') {
      if (shape.percent === 0) throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', 'canaryTrafficPercent is already 0');
      return {
        patch: { spec: { predictor: { canaryTrafficPercent: 0 } } },
        summary: `Roll back: all traffic to the last ready revision${to}, from ${describeSplit(shape.percent)}`,
        risk: 'medium',
        riskNote: 'The canary stops receiving traffic at once; its spec stays in the object (fix it, then promote or set a split).',
      };
    }
    if (!shape.canary && shape.percent === undefined) throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', 'there is no canary to roll back');
    return {
      patch: { spec: { canary: null, canaryTrafficPercent: null } },
      summary: `Roll back: drop the canary endpoint, all traffic to the default${to}, from ${describeSplit(shape.percent)}`,
      risk: 'medium',
      riskNote: 'The canary endpoint and its spec are removed from the InferenceService (v1alpha2 keeps no inactive canary).',
    };
  },
});
