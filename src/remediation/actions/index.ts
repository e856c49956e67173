/** The remediation actions the bot can apply, by id: the only registry. */
import type { RemediationAction } from '../types.js';
import { promoteCanary } from './promote-canary.js';
import { raiseMemoryLimit } from './raise-memory-limit.js';
import { restartPods } from './restart-pods.js';
import { rollbackCanary } from './rollback-canary.js';
import { setCanaryTraffic } from './set-canary-traffic.js';
import { skipTagResolution } from './skip-tag-resolution.js';

export const ALL_ACTIONS: readonly RemediationAction<any>[] = [raiseMemoryLimit, skipTagResolution, rollbackCanary, promoteCanary, setCanaryTraffic, restartPods];

export function actionById(id: string): RemediationAction<any> | undefined {
  return ALL_ACTIONS.find((a) => a.id === id);
}
