/**
 * The one place that wires the bot: config → queue, Slack poster, metrics, Bolt app (roles `all`
 * and `web`), diagnosis worker (roles `all` and `worker`), unready-watcher and incident jobs
 * (issue 5: watcher in roles `all` and `watcher`, Lease-elected; incident jobs where workers run).
 * Several processes may share one Redis.
 */
import { readFileSync } from 'node:fs';
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
import { startIncidents, type RunningIncidents } from '../incidents/start-incidents.js';

export type ServeRole = 'all' | 'web' | 'worker' | 'watcher';

export interface StartBotOptions {
  config: AppConfig;
  role?: ServeRole;
  /** Default: KUBECONFIG / ~/.kube/config / in-cluster. */
  kubeConfig?: KubeConfig;
  logger?: BotLogger;
  /** BullMQ key prefix (tests and benches isolate themselves with it). */
  queuePrefix?: string;
  /** Issue 5 tuning (tests): incident note batching and the Lease holder identity. */
  incidents?: { refreshDelayMs?: number; identity?: string };
}

export interface RunningBot {
  /** The HTTP port (Slack events in HTTP mode, health routes always). */
  port: number;
  url: string;
  queue: DiagnosisQueue;
  worker: Worker | null;
  app: App | null;
  metrics: BotMetrics;
  /** Issue 5: incident store, mutes, worker and watcher. */
  incidents: RunningIncidents;
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
  const runDiagnosis = (target: Parameters<typeof diagnose>[1], signal?: AbortSignal) => diagnose(kubeConfig, target, { config: config.diagnosis, ...(signal ? { signal } : {}) });
  const incidents = startIncidents(
    {
      config,
      runWorker: role === 'all' || role === 'worker',
      runWatcher: role === 'all' || role === 'watcher',
      kubeConfig,
      connection: queue.connection,
      prefix: options.queuePrefix ?? 'bull',
      poster,
      diagnose: runDiagnosis,
      logger,
      ...options.incidents,
    },
    podNamespace,
  );
  const routes = healthRoutes({ pingRedis: () => queue.ping(), kubeConfig, metrics });
  const closers: Array<() => Promise<unknown>> = [() => incidents.close()];
  let app: App | null = null;
  let worker: Worker | null = null;
  let port = config.port;
  try {
    if (role === 'all' || role === 'worker') {
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
    if (role === 'all' || role === 'web') {
      const afterAck = createAfterAck({ onError: (e) => logger.warn(`after ack: ${e instanceof Error ? e.message : String(e)}`) });
      const deps: BotDeps = { config, queue, poster, metrics, logger, afterAck, remediation, mutes: incidents.mutes };
      app = await buildSlackApp({ slack: config.slack, port: config.port, routes, deps });
      const a = app;
      const started = (config.slack.socketMode ? await app.start() : await app.start(config.port)) as unknown;
      closers.push(() => a.stop());
      if (!config.slack.socketMode) port = ((started as Server).address() as AddressInfo).port;
    }
    if (role === 'worker' || role === 'watcher' || config.slack.socketMode) {
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
    incidents,
    close: async () => {
      for (const c of closers.reverse()) await c().catch(() => undefined);
      await queue.close();
    },
  };
}

/** The namespace of the pod this runs in (the Lease goes there by default), when in a cluster. */
function podNamespace(): string | null {
  try {
    return readFileSync('/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'utf8').trim() || null;
  } catch {
    return process.env.POD_NAMESPACE ?? null;
  }
}
