/**
 * promote-canary (`/isvc rollout NAME promote`): sends all traffic to the canary. v1beta1: removes
 * `spec.predictor.canaryTrafficPercent` (the latest revision gets 100%). v1alpha2: the canary
 * endpoint becomes the default and `spec.canary` / `spec.canaryTrafficPercent` are removed.
 * Risk: high (every request goes to the new model at once).
 * RBAC: get/patch inferenceservices.
 */
import { z } from 'zod';
import { RemediationError } from '../../changes/remediation-error.js';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import { canaryShape, describeSplit } from './canary-shape.js';

const params = z.object({}).passthrough();

export const promoteCanary = patchAction<z.infer<typeof params>>({
  id: 'promote-canary',
  title: 'Promote the canary',
  params,
  locate: locateInferenceService,
  build(live) {
    const shape = canaryShape(live);
    const riskNote = 'Every request goes to the new model at once; check the canary\'s metrics first.';
    if (shape.kind === 'v1beta1') {
      if (shape.percent === undefined) throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', 'no canaryTrafficPercent: the latest revision already gets all traffic');
      return { patch: { spec: { predictor: { canaryTrafficPercent: null } } }, summary: `Promote: all traffic to the latest revision, from ${describeSplit(shape.percent)}`, risk: 'high', riskNote };
    }
    if (!shape.canary) throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', 'there is no canary endpoint to promote');
    // A merge patch replaces objects key by key: null out the default's keys the canary does not have.
    const cleared = Object.fromEntries(Object.keys(shape.default).filter((k) => !(k in shape.canary!)).map((k) => [k, null]));
    return {
      patch: { spec: { default: { ...cleared, ...shape.canary }, canary: null, canaryTrafficPercent: null } },
      summary: `Promote: the canary endpoint becomes the default, from ${describeSplit(shape.percent)}`,
      risk: 'high',
      riskNote,
    };
  },
});
