/** Slash commands. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../../src/bot/bot-deps.js';
import { isvcCommand } from './isvc-command.js';

export const ISVC_COMMAND = '/isvc';

export function register(app: App, deps: BotDeps): void {
  app.command(ISVC_COMMAND, isvcCommand(deps));
}
