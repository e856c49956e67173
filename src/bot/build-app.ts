/**
 * Builds the Bolt app: HTTP receiver (signature verification, 5-minute timestamp window, Slack
 * events at POST /slack/events plus the health routes), or Socket Mode when an app token is set.
 * SLACK_API_URL reaches every Web API client Bolt makes (the app's, and in Socket Mode the one that
 * opens the connection). `auth.test` runs here, so a bad token stops the start. The listeners are
 * registered by the caller (src/app/web.ts).
 */
import { App, LogLevel } from '@slack/bolt';
import type { AppConfig } from '../config.js';
import { CodedError } from '../core/coded-error.js';
import { errorMessage } from '../core/error-message.js';
import { slackClientOptions } from '../slack/web-api-poster.js';
import type { HealthRoute } from './health-routes.js';

export interface SlackAppOptions {
  slack: AppConfig['slack'];
  port: number;
  /** HTTP mode only: served next to /slack/events. */
  routes: HealthRoute[];
}

export class SlackStartError extends CodedError<'SLACK_AUTH_FAILED'> {
  constructor(message: string) {
    super('SLACK_AUTH_FAILED', message);
  }
}

export async function buildSlackApp(options: SlackAppOptions): Promise<App> {
  const { slack } = options;
  const clientOptions = slackClientOptions({ apiUrl: slack.apiUrl });
  const common = { token: slack.botToken, clientOptions, logLevel: LogLevel.WARN, deferInitialization: true } as const;
  const app = slack.socketMode
    ? new App({ ...common, socketMode: true, appToken: slack.appToken!, installerOptions: { clientOptions } })
    : new App({
        ...common,
        signingSecret: slack.signingSecret!,
        port: options.port,
        customRoutes: options.routes.map((r) => ({ path: r.path, method: r.method, handler: r.handler })),
        processBeforeResponse: false,
      });
  try {
    await app.init();
  } catch (error) {
    const data = (error as { data?: { error?: string } }).data;
    throw new SlackStartError(`Slack auth.test failed: ${data?.error ?? errorMessage(error)}`);
  }
  return app;
}
