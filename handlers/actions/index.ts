/**
 * Interactive actions (block buttons): the remediation buttons `remediation.approve` /
 * `remediation.reject`, whose value is only an opaque proposal id; the buttons that run a command
 * for the clicker (Re-diagnose, Mute 1h, rollout Promote / Roll back / Set split), whose value is
 * only a target; URL buttons (Grafana, Jaeger, Kiali), only acknowledged. One file per action.
 */
import type { App } from '@slack/bolt';
import {
  APPROVE_ACTION,
  MUTE_HOUR_ACTION,
  OPEN_LINK_ACTION,
  REDIAGNOSE_ACTION,
  REJECT_ACTION,
  ROLLOUT_PROMOTE_ACTION,
  ROLLOUT_ROLLBACK_ACTION,
  ROLLOUT_SPLIT_ACTION,
} from '../../src/slack/action-ids.js';
import type { HandlerDeps } from '../handler-deps.js';
import { commandButton } from './command-button.js';
import { remediationApprove } from './remediation-approve.js';
import { remediationReject } from './remediation-reject.js';

export function register(app: App, deps: HandlerDeps): void {
  app.action(APPROVE_ACTION, remediationApprove(deps));
  app.action(REJECT_ACTION, remediationReject(deps));
  app.action(
    REDIAGNOSE_ACTION,
    commandButton(deps, (target) => `diagnose ${target}`),
  );
  app.action(
    MUTE_HOUR_ACTION,
    commandButton(deps, (target) => `mute ${target} 1h`),
  );
  app.action(
    ROLLOUT_PROMOTE_ACTION,
    commandButton(deps, (target) => `rollout ${target} promote`),
  );
  app.action(
    ROLLOUT_ROLLBACK_ACTION,
    commandButton(deps, (target) => `rollout ${target} rollback`),
  );
  app.action(
    ROLLOUT_SPLIT_ACTION,
    commandButton(deps, (targetAndSplit) => `rollout ${targetAndSplit}`),
  );
  // a URL button opens its link in the browser; Slack still sends the click, which needs an ack
  app.action(new RegExp(`^${OPEN_LINK_ACTION.replace('.', '\\.')}\\.\\d+$`), async ({ ack }) => ack());
}
