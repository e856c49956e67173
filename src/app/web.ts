/**
 * The Slack side of `serve` (roles `all` and `web`): the Bolt app (HTTP receiver with the health
 * routes next to /slack/events, or Socket Mode), every listener registered through
 * `registerHandlers(app, deps)`, work after the ack paced and kept in the request's log context.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '@slack/bolt';
import type { HandlerDeps } from '../../handlers/handler-deps.js';
import { registerHandlers } from '../../handlers/index.js';
import { runAfterAck } from '../bot/after-ack.js';
import { buildSlackApp } from '../bot/build-app.js';
import { RequestInbox } from '../bot/request-inbox.js';
import type { HealthRoute } from '../bot/health-routes.js';
import type { AppConfig } from '../config.js';
import { errorMessage } from '../core/error-message.js';
import { bindRequestContext } from '../core/logger.js';

export interface RunningWeb {
  app: App;
  /** The HTTP port (0 in Socket Mode: the health routes get a server of their own). */
  port: number;
  stop(): Promise<void>;
}

export async function startWeb(
  config: Pick<AppConfig, 'slack' | 'port' | 'http' | 'redisUrl'>,
  routes: HealthRoute[],
  deps: Omit<HandlerDeps, 'afterAck'>,
  options: { inboxKeyPrefix?: string } = {},
): Promise<RunningWeb> {
  const onError = (e: unknown) => deps.logger.warn(`after ack: ${errorMessage(e)}`);
  // either front door runs each request after its ack on its own paced queue (acked-requests.ts)
  const queued = runAfterAck(onError);
  // the work keeps the request id of the request that queued it
  const afterAck = (work: () => Promise<void>) => queued(bindRequestContext(work));
  const inbox = options.inboxKeyPrefix
    ? new RequestInbox({ redisUrl: config.redisUrl, keyPrefix: options.inboxKeyPrefix, logger: deps.logger })
    : undefined;
  const app = await buildSlackApp({
    slack: config.slack,
    port: config.port,
    http: config.http,
    routes,
    logger: deps.logger,
    ...(inbox ? { inbox } : {}),
  });
  registerHandlers(app, { ...deps, afterAck });
  app.error(async (error) => {
    deps.logger.warn(`slack: ${error.code ?? 'error'}: ${error.message.split('\n')[0]}`);
  });
  const started = (config.slack.socketMode ? await app.start() : await app.start(config.port)) as unknown;
  const port = config.slack.socketMode ? 0 : ((started as Server).address() as AddressInfo).port;
  return { app, port, stop: async () => void (await app.stop()) };
}
