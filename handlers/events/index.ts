/** Events API listeners. */
import type { App } from '@slack/bolt';
import type { BotDeps } from '../../src/bot/bot-deps.js';
import { appMention } from './app-mention.js';

export function register(app: App, deps: BotDeps): void {
  app.event('app_mention', appMention(deps));
}
