/**
 * promote-canary (`/isvc rollout NAME promote`): sends all traffic to the canary. v1beta1: removes
 * `spec.predictor.canaryTrafficPercent` (the latest revision gets 100%). v1alpha2: the canary
 * endpoint becomes the default and `spec.canary` / `spec.canaryTrafficPercent` are removed. Standard
 * mode (KServe 0.20, `spec.canary[]`): as KServe documents the promotion without a restart,
 * `spec.predictor` takes the canary's predictor (its `name` too, so the canary's Deployment
 * `<isvc>-<name>-predictor` becomes the stable one and its pods keep running) and the canary's entry
 * leaves `spec.canary`. The merge patch merges the canary's predictor into the stable one key by key,
 * as the controller builds the canary (the stable predictor with the canary's fields over it);
 * the canary's fixed `minReplicas` is left out (the stable's scaling stays).
 * Risk: high (every request goes to the new model at once).
 * RBAC: get/patch inferenceservices.
 */
import { z } from 'zod';
import { RemediationError } from '../../changes/remediation-error.js';
import { failingCanaryState } from '../canary-state.js';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import { canaryShape, chosenCanary, describeSplit } from './canary-shape.js';

const params = z.object({ canary: z.string().nullish() }).passthrough();

export const promoteCanary = patchAction<z.infer<typeof params>>({
  id: 'promote-canary',
  title: 'Promote the canary',
  label: () => 'Promote the canary to 100%',
  params,
  locate: locateInferenceService,
  async build(live, _params, ctx) {
    const shape = canaryShape(live);
    const failing = await failingCanaryState(ctx, live);
    const riskNote = failing
      ? `The canary is failing (${failing}): promoting sends every request to it. Roll back instead, or fix it first.`
      : "Every request goes to the new model at once; check the canary's metrics first.";
    const state = failing ? { targetState: failing } : {};
    if (shape.kind === 'standard') {
      const c = chosenCanary(shape, typeof _params.canary === 'string' ? _params.canary : undefined);
      const { minReplicas: _fixed, ...predictor } = c.predictor;
      const kept = shape.entries.filter((_, i) => i !== c.index);
      return {
        patch: { spec: { predictor, canary: kept.length ? kept : null } },
        summary: `Promote canary ${c.name}: spec.predictor takes spec.canary[${c.index}].predictor (predictor.name ${c.name}, so Deployment ${c.deployment} becomes the stable one without a restart) and the entry leaves spec.canary; from ${describeSplit(shape.percent)}`,
        risk: 'high',
        riskNote: `${riskNote} KServe then deletes the old stable Deployment ${shape.stable}.`,
        ...state,
      };
    }
    if (shape.kind === 'v1beta1') {
      if (shape.percent === undefined)
        throw new RemediationError(
          'REMEDIATION_NOTHING_TO_CHANGE',
          'no canaryTrafficPercent: the latest revision already gets all traffic',
        );
      return {
        patch: { spec: { predictor: { canaryTrafficPercent: null } } },
        summary: `Promote: all traffic to the latest revision, from ${describeSplit(shape.percent)}`,
        risk: 'high',
        riskNote,
        ...state,
      };
    }
    const { canary } = shape;
    if (!canary) throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', 'there is no canary endpoint to promote');
    // A merge patch replaces objects key by key: null out the default's keys the canary does not have.
    const cleared = Object.fromEntries(
      Object.keys(shape.default)
        .filter((k) => !(k in canary))
        .map((k) => [k, null]),
    );
    return {
      patch: { spec: { default: { ...cleared, ...canary }, canary: null, canaryTrafficPercent: null } },
      summary: `Promote: the canary endpoint becomes the default, from ${describeSplit(shape.percent)}`,
      risk: 'high',
      riskNote,
      ...state,
    };
  },
});
