/**
 * The one place that wires the bot: config → queue, Slack poster, metrics, Bolt app (roles `all`
 * and `web`), diagnosis worker (roles `all` and `worker`), unready-watcher and incident jobs
 * (issue 5: watcher in roles `all` and `watcher`, Lease-elected; incident jobs where workers run).
 * Several processes may share one Redis.
 *
 * Operations (issue 6): every Slack request gets a request id (JSON logs, carried into the jobs it
 * queues and the worker's lines about them); metrics for the queue, remediations and Slack errors;
 * `close()` is the graceful shutdown: stop taking Slack requests, release the Lease, let running
 * jobs finish until the deadline, then cancel them (BullMQ hands them to another worker).
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import type { App } from '@slack/bolt';
import type { Job, Queue, Worker } from 'bullmq';
import type { AppConfig } from '../config.js';
import { diagnose } from '../app/diagnoser.js';
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
import { bindRequestContext, createLogger, currentRequestId, newRequestId, withRequestId, type Logger } from '../core/logger.js';
import { countSlackErrors, createBotMetrics, type BotMetrics } from './metrics.js';
import { createSlackPoster, createSlackWebClient } from './slack-poster.js';
import { startIncidents, type RunningIncidents } from '../incidents/start-incidents.js';

export type ServeRole = 'all' | 'web' | 'worker' | 'watcher';

export interface StartBotOptions {
  config: AppConfig;
  role?: ServeRole;
  /** Default: KUBECONFIG / ~/.kube/config / in-cluster. */
  kubeConfig?: KubeConfig;
  logger?: Logger;
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
  /** Graceful: running jobs get until `timeoutMs` (default SHUTDOWN_TIMEOUT_MS or 30 s) to finish. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/** Every job added while a Slack request is handled carries its request id (`requestId` in the data). */
function stampRequestIds(queue: Queue): void {
  const add = queue.add.bind(queue);
  queue.add = ((name: string, data: object, opts?: object) => {
    const requestId = currentRequestId();
    return add(name as never, (requestId ? { ...data, requestId } : data) as never, opts as never);
  }) as typeof queue.add;
}

function jobFields(job: Job | undefined): Record<string, unknown> {
  if (!job) return {};
  const d = (job.data ?? {}) as { kind?: string; requestId?: string; target?: { namespace?: string; name?: string }; subscriber?: { channel?: string; threadTs?: string }; channel?: string; proposalId?: string };
  return {
    ...(d.requestId ? { requestId: d.requestId } : {}),
    jobId: job.id,
    kind: d.kind ?? job.name,
    ...(d.target ? { target: `${d.target.namespace}/${d.target.name}` } : {}),
    ...(d.subscriber ? { channel: d.subscriber.channel, threadTs: d.subscriber.threadTs } : d.channel ? { channel: d.channel } : {}),
    ...(d.proposalId ? { proposalId: d.proposalId } : {}),
    attempt: job.attemptsMade + 1,
  };
}

/** Logs a worker's jobs (start, end, failure) with the request id that queued them. */
function logJobs(worker: Worker, logger: Logger): void {
  worker.on('active', (job) => logger.info('job started', jobFields(job)));
  worker.on('completed', (job, result: unknown) => logger.info('job done', { ...jobFields(job), result, ms: job.finishedOn && job.processedOn ? job.finishedOn - job.processedOn : undefined }));
  worker.on('failed', (job, error) => logger.warn('job failed', { ...jobFields(job), error: error.message.split('\n')[0] }));
}

/** Rejects as soon as the signal aborts (the work itself may go on; its result is dropped). */
function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(`cancelled: ${String(signal.reason ?? 'shutting down')}`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Waits for a worker's running jobs until the deadline, then cancels them (their signal aborts) and stops. */
async function closeWorker(worker: Worker, deadlineAt: number, logger: Logger): Promise<void> {
  const closing = worker.close();
  const left = deadlineAt - Date.now();
  const inTime = await Promise.race([closing.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), Math.max(0, left)).unref())]);
  if (inTime) return;
  logger.warn(`shutdown: jobs of ${worker.name} still running after the deadline; cancelling them (BullMQ retries them on another worker)`);
  worker.cancelAllJobs('isvc-doctor is shutting down');
  await Promise.race([closing, new Promise((r) => setTimeout(r, 2000).unref())]);
  await worker.close(true).catch(() => undefined);
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
  stampRequestIds(queue.queue);
  metrics.observeQueue({
    counts: () => queue.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'completed', 'failed'),
    oldestWaitingAt: async () => (await queue.queue.getJobs(['wait'], 0, 0, true))[0]?.timestamp ?? null,
  });
  const slackClient = createSlackWebClient({ botToken: config.slack.botToken, apiUrl: config.slack.apiUrl });
  const poster = countSlackErrors(createSlackPoster(slackClient), metrics);
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
  const jobKind = (job: { data?: unknown } | undefined) => String((job?.data as { kind?: unknown } | undefined)?.kind ?? 'unknown');
  incidents.worker?.on('completed', (job) => metrics.incidentJobDone(jobKind(job), 'done'));
  incidents.worker?.on('failed', (job) => metrics.incidentJobDone(jobKind(job), 'failed'));
  const routes = healthRoutes({ pingRedis: () => queue.ping(), kubeConfig, metrics });
  /** Stop taking requests first (Slack HTTP, health server), then the workers, then the rest. */
  const httpClosers: Array<() => Promise<unknown>> = [];
  const closers: Array<() => Promise<unknown>> = [() => incidents.close()];
  let app: App | null = null;
  let worker: Worker | null = null;
  let port = config.port;
  try {
    if (role === 'all' || role === 'worker') {
      worker = createDiagnosisWorker(
        { redisUrl: config.redisUrl, name: config.queue.name, concurrency: config.queue.concurrency, ...(options.queuePrefix ? { prefix: options.queuePrefix } : {}) },
        {
          // cancelled at shutdown: the attempt fails at once and BullMQ retries the job (on another worker)
          diagnose: (target, signal) => abortable(diagnose(kubeConfig, target, { config: config.diagnosis, ...(signal ? { signal } : {}) }), signal),
          listStatus: (namespace) => listIsvcStatus(kubeConfig, namespace),
          poster,
          store: queue.store,
          backoffMs: config.queue.backoffMs,
          onDiagnosis: (outcome, report, seconds) => metrics.diagnosisDone(outcome, report, seconds),
          afterReport: (report, threads) => offerRemediations(remediation, report, threads.map((t) => ({ channel: t.channel, threadTs: t.threadTs, user: t.user }))),
          remediate: async (data, signal) => {
            const action = async () => (await remediation.store.get(data.proposalId).catch(() => null))?.proposal.action ?? 'unknown';
            try {
              const result = await applyProposal(remediation, data, signal);
              metrics.remediationDone(await action(), result.state);
              return result;
            } catch (error) {
              metrics.remediationDone(await action(), 'error');
              throw error;
            }
          },
          warn: (m) => logger.warn(m),
        },
      );
      logJobs(worker, logger);
    }
    if (role === 'all' || role === 'web') {
      const queued = createAfterAck({ onError: (e) => logger.warn(`after ack: ${e instanceof Error ? e.message : String(e)}`) });
      // the work keeps the request id of the request that queued it
      const afterAck = (work: () => Promise<void>) => queued(bindRequestContext(work));
      const deps: BotDeps = { config, queue, poster, metrics, logger, afterAck, remediation, mutes: incidents.mutes };
      app = await buildSlackApp({ slack: config.slack, port: config.port, routes, deps });
      app.use(async ({ body, next }) => {
        const b = body as { type?: string; command?: string; text?: string; event?: { type?: string }; user_id?: string; user?: { id?: string }; channel_id?: string; channel?: { id?: string } };
        await withRequestId(newRequestId(), async () => {
          logger.info('slack request', {
            type: b.command ? 'command' : (b.event?.type ?? b.type ?? 'unknown'),
            ...(b.command ? { command: `${b.command} ${(b.text ?? '').slice(0, 120)}`.trim() } : {}),
            user: b.user_id ?? b.user?.id,
            channel: b.channel_id ?? b.channel?.id,
          });
          await next();
        });
      });
      const a = app;
      const started = (config.slack.socketMode ? await app.start() : await app.start(config.port)) as unknown;
      httpClosers.push(() => a.stop());
      if (!config.slack.socketMode) port = ((started as Server).address() as AddressInfo).port;
    }
    if (role === 'worker' || role === 'watcher' || config.slack.socketMode) {
      const health = await startHealthServer(routes, config.port);
      port = health.port;
      httpClosers.push(
        () =>
          new Promise((resolve) => {
            health.server.close(resolve);
            health.server.closeIdleConnections();
          }),
      );
    }
  } catch (error) {
    for (const c of [...httpClosers, ...closers].reverse()) await c().catch(() => undefined);
    await worker?.close(true).catch(() => undefined);
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
    close: async (closeOptions = {}) => {
      const timeoutMs = closeOptions.timeoutMs ?? (Number(process.env.SHUTDOWN_TIMEOUT_MS) || 30_000);
      const deadlineAt = Date.now() + timeoutMs;
      const t0 = Date.now();
      logger.info('shutdown: no new Slack requests, releasing the Lease, finishing running jobs', { timeoutMs });
      for (const c of httpClosers.reverse()) await c().catch(() => undefined);
      await incidents.watcher?.close().catch(() => undefined);
      await Promise.all([worker, incidents.worker].flatMap((w) => (w ? [closeWorker(w, deadlineAt, logger)] : [])));
      for (const c of closers.reverse()) await c().catch(() => undefined);
      await queue.close();
      logger.info('shutdown: done', { ms: Date.now() - t0 });
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
