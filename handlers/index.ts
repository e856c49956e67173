/** All Slack listeners: one `register(app, deps)` per folder. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../src/bot/bot-deps.js';
import { register as registerActions } from './actions/index.js';
import { register as registerCommands } from './commands/index.js';
import { register as registerEvents } from './events/index.js';

export function registerHandlers(app: App, deps: BotDeps): void {
  registerCommands(app, deps);
  registerEvents(app, deps);
  registerActions(app, deps);
}
