/**
 * The remediation actions the bot can apply, by id: the only registry. Playbooks ask it for the fix
 * a finding offers (`offerFix`): the action id and the input are checked when compiling, and the
 * offer is computed by the action itself, so the report shows the change its plan will make.
 */
import type { Remediation } from '../../findings/types.js';
import type { OfferContext, RemediationAction } from '../types.js';
import { lowerGpuMemoryUtilization } from './lower-gpu-memory-utilization.js';
import { lowerMaxModelLen } from './lower-max-model-len.js';
import { lowerMaxNumSeqs } from './lower-max-num-seqs.js';
import { promoteCanary } from './promote-canary.js';
import { raiseMemoryLimit } from './raise-memory-limit.js';
import { setLlmGroupWeight } from './set-llm-group-weight.js';
import { raiseShm } from './raise-shm.js';
import { restartPods } from './restart-pods.js';
import { resumeStoppedService } from './resume-stopped-service.js';
import { rollbackCanary } from './rollback-canary.js';
import { setCanaryTraffic } from './set-canary-traffic.js';
import { skipTagResolution } from './skip-tag-resolution.js';

export const ACTIONS = {
  'raise-memory-limit': raiseMemoryLimit,
  'skip-tag-resolution': skipTagResolution,
  'rollback-canary': rollbackCanary,
  'promote-canary': promoteCanary,
  'set-canary-traffic': setCanaryTraffic,
  'restart-pods': restartPods,
  'lower-max-model-len': lowerMaxModelLen,
  'resume-stopped-service': resumeStoppedService,
  'lower-gpu-memory-utilization': lowerGpuMemoryUtilization,
  'lower-max-num-seqs': lowerMaxNumSeqs,
  'raise-shm': raiseShm,
  'set-llm-group-weight': setLlmGroupWeight,
} as const;

export type ActionId = keyof typeof ACTIONS;

type OfferOf<K extends ActionId> = (typeof ACTIONS)[K] extends { offer(ctx: OfferContext, input: infer I): unknown }
  ? I
  : never;
/** The actions a finding can offer (the others are started by a command, e.g. `/isvc rollout`). */
export type OfferingActionId = { [K in ActionId]: OfferOf<K> extends never ? never : K }[ActionId];

export const ALL_ACTIONS: readonly RemediationAction<any>[] = Object.values(ACTIONS);

export function actionById(id: string): RemediationAction<any> | undefined {
  return Object.hasOwn(ACTIONS, id) ? ACTIONS[id as ActionId] : undefined;
}

/** The fix the action offers for a finding, from what the diagnosis read; null when it has none to offer. */
export async function offerFix<K extends OfferingActionId>(
  id: K,
  ctx: OfferContext,
  input: OfferOf<K>,
): Promise<Remediation | null> {
  const action = ACTIONS[id] as unknown as {
    offer(ctx: OfferContext, input: OfferOf<K>): Promise<Remediation | null> | Remediation | null;
  };
  return action.offer(ctx, input);
}
