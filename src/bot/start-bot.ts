/**
 * The one place that wires the bot: config → queue, Slack poster, metrics, Bolt app (roles `all`
 * and `web`), diagnosis worker (roles `all` and `worker`). Several processes may share one Redis.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import type { App } from '@slack/bolt';
import type { Worker } from 'bullmq';
import type { AppConfig } from '../config.js';
import { diagnose } from '../diagnosis/diagnose.js';
import { loadKubeConfig } from '../kube/client.js';
import { createDiagnosisWorker } from '../queue/diagnosis-worker.js';
import { DiagnosisQueue } from '../queue/diagnosis-queue.js';
import { applyProposal } from '../remediation/apply-proposal.js';
import { createRemediationDeps } from '../remediation/create-remediation-deps.js';
import { offerRemediations } from '../remediation/offer-remediations.js';
import { createAfterAck } from './after-ack.js';
import { buildSlackApp } from './build-app.js';
import type { BotDeps } from './bot-deps.js';
import { healthRoutes, startHealthServer } from './health-routes.js';
import { listIsvcStatus } from './list-isvc-status.js';
import { createLogger, type BotLogger } from './logger.js';
import { createBotMetrics, type BotMetrics } from './metrics.js';
import { createSlackPoster, createSlackWebClient } from './slack-poster.js';

export type ServeRole = 'all' | 'web' | 'worker';

export interface StartBotOptions {
  config: AppConfig;
  role?: ServeRole;
  /** Default: KUBECONFIG / ~/.kube/config / in-cluster. */
  kubeConfig?: KubeConfig;
  logger?: BotLogger;
  /** BullMQ key prefix (tests and benches isolate themselves with it). */
  queuePrefix?: string;
}

export interface RunningBot {
  /** The HTTP port (Slack events in HTTP mode, health routes always). */
  port: number;
  url: string;
  queue: DiagnosisQueue;
  worker: Worker | null;
  app: App | null;
  metrics: BotMetrics;
  close(): Promise<void>;
}

export async function startBot(options: StartBotOptions): Promise<RunningBot> {
  const { config } = options;
  const role = options.role ?? 'all';
  const logger = options.logger ?? createLogger();
  const kubeConfig = options.kubeConfig ?? loadKubeConfig(config.kubeconfig ? { file: config.kubeconfig } : {});
  const metrics = createBotMetrics();
  const queue = new DiagnosisQueue({
    redisUrl: config.redisUrl,
    name: config.queue.name,
    ...(options.queuePrefix ? { prefix: options.queuePrefix } : {}),
    attempts: config.queue.attempts,
    backoffMs: config.queue.backoffMs,
    logger,
  });
  const slackClient = createSlackWebClient({ botToken: config.slack.botToken, apiUrl: config.slack.apiUrl });
  const poster = createSlackPoster(slackClient);
  const remediation = createRemediationDeps({
    config,
    kubeConfig,
    redis: queue.connection,
    keyPrefix: `${options.queuePrefix ?? 'bull'}:${config.queue.name}`,
    poster,
    slack: slackClient,
    queue: queue.queue,
    warn: (m) => logger.warn(m),
  });
  const routes = healthRoutes({ pingRedis: () => queue.ping(), kubeConfig, metrics });
  const closers: Array<() => Promise<unknown>> = [];
  let app: App | null = null;
  let worker: Worker | null = null;
  let port = config.port;
  try {
    if (role !== 'web') {
      worker = createDiagnosisWorker(
        { redisUrl: config.redisUrl, name: config.queue.name, concurrency: config.queue.concurrency, ...(options.queuePrefix ? { prefix: options.queuePrefix } : {}) },
        {
          diagnose: (target, signal) => diagnose(kubeConfig, target, { config: config.diagnosis, ...(signal ? { signal } : {}) }),
          listStatus: (namespace) => listIsvcStatus(kubeConfig, namespace),
          poster,
          store: queue.store,
          backoffMs: config.queue.backoffMs,
          onDiagnosis: (outcome, report, seconds) => metrics.diagnosisDone(outcome, report, seconds),
          afterReport: (report, threads) => offerRemediations(remediation, report, threads.map((t) => ({ channel: t.channel, threadTs: t.threadTs, user: t.user }))),
          remediate: (data, signal) => applyProposal(remediation, data, signal),
          warn: (m) => logger.warn(m),
        },
      );
      const w = worker;
      closers.push(() => w.close());
    }
    if (role !== 'worker') {
      const afterAck = createAfterAck({ onError: (e) => logger.warn(`after ack: ${e instanceof Error ? e.message : String(e)}`) });
      const deps: BotDeps = { config, queue, poster, metrics, logger, afterAck, remediation };
      app = await buildSlackApp({ slack: config.slack, port: config.port, routes, deps });
      const a = app;
      const started = (config.slack.socketMode ? await app.start() : await app.start(config.port)) as unknown;
      closers.push(() => a.stop());
      if (!config.slack.socketMode) port = ((started as Server).address() as AddressInfo).port;
    }
    if (role === 'worker' || config.slack.socketMode) {
      const health = await startHealthServer(routes, config.port);
      port = health.port;
      closers.push(() => new Promise((resolve) => health.server.close(resolve)));
    }
  } catch (error) {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await queue.close();
    throw error;
  }
  logger.info(`isvc-doctor serve: role ${role}, ${config.slack.socketMode ? 'Socket Mode' : 'HTTP'}, port ${port}, queue ${config.queue.name}, concurrency ${config.queue.concurrency}`);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    queue,
    worker,
    app,
    metrics,
    close: async () => {
      for (const c of closers.reverse()) await c().catch(() => undefined);
      await queue.close();
    },
  };
}
