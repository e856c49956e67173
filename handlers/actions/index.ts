/**
 * Interactive actions (block buttons). Empty until remediations (issue 4): their buttons use
 * action_ids `remediation.approve` / `remediation.reject` and carry only an opaque proposal id.
 * Add one file per action here and register it below, e.g. `app.action('remediation.approve', approve(deps))`.
 */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../../src/bot/bot-deps.js';

export function register(_app: App, _deps: BotDeps): void {
  // issue 4
}
