/** Events API listeners. */
import type { App } from '@slack/bolt';
import type { HandlerDeps } from '../handler-deps.js';
import { appMention } from './app-mention.js';

export function register(app: App, deps: HandlerDeps): void {
  app.event('app_mention', appMention(deps));
}
