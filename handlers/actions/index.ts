/**
 * Interactive actions (block buttons): the remediation buttons `remediation.approve` /
 * `remediation.reject`, whose value is only an opaque proposal id. One file per action.
 */
import type { App } from '@slack/bolt';
import { APPROVE_ACTION, REJECT_ACTION } from '../../src/slack/action-ids.js';
import type { HandlerDeps } from '../handler-deps.js';
import { remediationApprove } from './remediation-approve.js';
import { remediationReject } from './remediation-reject.js';

export function register(app: App, deps: HandlerDeps): void {
  app.action(APPROVE_ACTION, remediationApprove(deps));
  app.action(REJECT_ACTION, remediationReject(deps));
}
