/** Slash commands. */
import type { App } from '@slack/bolt';
import type { HandlerDeps } from '../handler-deps.js';
import { isvcCommand } from './isvc-command.js';

export const ISVC_COMMAND = '/isvc';

export function register(app: App, deps: HandlerDeps): void {
  app.command(ISVC_COMMAND, isvcCommand(deps));
}
