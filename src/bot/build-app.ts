/**
 * Builds the Bolt app: the HTTP front door (slack-receiver.ts: body cap, signature and 5-minute
 * window either way, ack, then Bolt; Slack events at POST /slack/events plus the custom routes), or
 * the Socket Mode one when an app token is set (socket-mode-receiver.ts); both write each request to
 * the inbox before its ack and run Bolt after it.
 * SLACK_API_URL reaches every Web API client Bolt makes (the app's, and in Socket Mode the one that
 * opens the connection). `auth.test` runs here, so a bad token stops the start. The listeners are
 * registered by the caller (src/app/web.ts).
 * Transport: Bolt 5 and web-api 8 call Node's own fetch (no axios, no `agent` / `clientTls`
 * options): Node's trust store (NODE_EXTRA_CA_CERTS) and its proxy support (NODE_USE_ENV_PROXY=1
 * with HTTPS_PROXY) apply to the Web API, to response_url and to Socket Mode's WebSocket alike; a
 * transport of its own would be a `clientOptions.fetch` (and the Socket Mode client's `dispatcher`).
 */
import { App, LogLevel } from '@slack/bolt';
import { WebAPIPlatformError } from '@slack/web-api';
import { SlackStartError } from './slack-start-error.js';
import type { AppConfig } from '../config.js';
import { errorMessage } from '../core/error-message.js';
import { slackClientOptions } from '../slack/web-api-poster.js';
import type { HealthRoute } from './health-routes.js';
import type { Logger } from '../core/logger.js';
import type { RequestInbox } from './request-inbox.js';
import { SlackReceiver } from './slack-receiver.js';
import { SocketModeReceiver } from './socket-mode-receiver.js';

export interface SlackAppOptions {
  slack: AppConfig['slack'];
  port: number;
  /** HTTP mode: the read deadlines of Slack's requests. */
  http?: AppConfig['http'];
  /** HTTP mode only: served next to /slack/events. */
  routes: HealthRoute[];
  logger: Logger;
  /** The durable hand-off between the ack and the work (both modes). */
  inbox?: RequestInbox;
}

export { SlackStartError };

export async function buildSlackApp(options: SlackAppOptions): Promise<App> {
  const { slack } = options;
  const clientOptions = slackClientOptions({ apiUrl: slack.apiUrl });
  const common = { token: slack.botToken, clientOptions, logLevel: LogLevel.WARN, deferInitialization: true } as const;
  const app = slack.socketMode
    ? new App({
        ...common,
        receiver: new SocketModeReceiver({
          appToken: slack.appToken!,
          clientOptions,
          logger: options.logger,
          ...(options.inbox ? { inbox: options.inbox } : {}),
        }),
      })
    : new App({
        ...common,
        receiver: new SlackReceiver({
          signingSecret: slack.signingSecret!,
          routes: options.routes,
          logger: options.logger,
          ...(options.http ?? {}),
          ...(options.inbox ? { inbox: options.inbox } : {}),
        }),
      });
  try {
    await app.init();
  } catch (error) {
    // Slack's answer (invalid_auth, not_authed…), else what the request met (a WebAPIRequestError: fetch failed)
    const why = error instanceof WebAPIPlatformError ? error.data.error : errorMessage(error);
    throw new SlackStartError(`Slack auth.test failed: ${why ?? 'unknown'}`);
  }
  return app;
}
