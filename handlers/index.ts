/** All Slack listeners: the request-context middleware first, then one `register(app, deps)` per folder. */
import type { App } from '@slack/bolt';
import { register as registerActions } from './actions/index.js';
import { register as registerCommands } from './commands/index.js';
import { register as registerEvents } from './events/index.js';
import type { HandlerDeps } from './handler-deps.js';
import { requestContext } from './request-context.js';

export function registerHandlers(app: App, deps: HandlerDeps): void {
  app.use(requestContext(deps.logger));
  registerCommands(app, deps);
  registerEvents(app, deps);
  registerActions(app, deps);
}
