/**
 * The composition root of `serve`: builds the config's clients, the queue producers, the diagnoser,
 * the Slack side (poster, notifiers) and the remediation flow once, then starts what the role runs
 * (src/app/roles.ts): the Slack listeners, the workers, the watcher. Several processes may share one
 * Redis. `close()` is the graceful shutdown: stop taking Slack requests, release the Lease, let
 * running jobs finish until the deadline, then cancel them (BullMQ hands them to another worker).
 */
import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import type { App } from '@slack/bolt';
import type { Worker } from 'bullmq';
import { healthRoutes } from '../bot/health-routes.js';
import { createBotMetrics, type BotMetrics } from '../bot/metrics.js';
import { ConfigError, type AppConfig } from '../config.js';
import { clusterJobQueueOf } from './cluster-job-queue-of.js';
import { settledWithin } from '../core/bounded.js';
import { createLogger, type Logger } from '../core/logger.js';
import { redactDeep } from '../logs/redact-deep.js';
import { loadKubeConfig } from '../kube/client.js';
import { startHeartbeat, type RunningHeartbeat } from '../clusters/agent-heartbeat.js';
import { runCommand } from '../commands/index.js';
import { packageVersion } from '../core/package-version.js';
import { renderCommandReply } from '../notify/slack-command-replies.js';
import { limitRequests } from '../kube/request-limits.js';
import type { ClusterJobQueue } from '../queue/cluster-job-queue.js';
import type { CommandJobData } from '../queue/jobs/command-job.js';
import type { McpCallResult, McpJobData } from '../queue/jobs/mcp-job.js';
import { clusterQueuePrefix, isRedisCluster } from '../queue/queue-prefix.js';
import { describeRedis } from '../queue/redis-connection.js';
import { signatureCatalog } from '../signatures/load-signatures.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import { closeWorker } from './close-worker.js';
import { lazyDiagnoser } from './lazy-diagnoser.js';
import { startMetricsServer } from './metrics-server.js';
import { incidentFixes, startIncidents, type RunningIncidents } from './incidents-wiring.js';
import { createRemediationDeps } from './remediation-wiring.js';
import { ROLE_PARTS, type RoleParts, type ServeRole } from './roles.js';
import { agentConfig } from './cluster-config.js';

export interface ServeOptions {
  config: AppConfig;
  role?: ServeRole;
  /** Default: the config's kubeconfig, else KUBECONFIG / ~/.kube/config / in-cluster. */
  kubeConfig?: KubeConfig;
  logger?: Logger;
  /** BullMQ key prefix (tests and benches isolate themselves with it). */
  queuePrefix?: string;
  /** Incident note batching and the Lease holder identity (tests). */
  incidents?: { refreshDelayMs?: number; identity?: string };
  /** The clock of proposal expiry and of the readiness cache (tests move it instead of sleeping). */
  now?: () => number;
  /** The signature catalog with the config's files (`serve` loads and checks it before starting); loaded here when absent. */
  signatures?: SignatureCatalog;
  /** `--role agent`: the cluster (a key of the config's clusters) this process serves. */
  cluster?: string;
}

export interface RunningServe {
  /** Slack's HTTP port (HTTP mode), else the metrics port. */
  port: number;
  url: string;
  /** /metrics, /healthz, /readyz (METRICS_PORT). */
  metricsPort: number;
  metricsUrl: string;
  /** The queue (multi-cluster web process: the first cluster's). */
  queue: ClusterJobQueue;
  worker: Worker | null;
  app: App | null;
  metrics: BotMetrics;
  incidents: RunningIncidents;
  /** MCP's Streamable HTTP endpoint (MCP_PORT), null when off. */
  mcpUrl?: string | null;
  /** Graceful: running jobs get until `timeoutMs` (default the config's shutdownTimeoutMs) to finish. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

function observeQueue(metrics: BotMetrics, queue: ClusterJobQueue): void {
  metrics.observeQueue({
    counts: () =>
      queue.queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'prioritized',
        'waiting-children',
        'completed',
        'failed',
      ),
    oldestWaitingAt: async () => (await queue.queue.getJobs(['wait'], 0, 0, true))[0]?.timestamp ?? null,
  });
}

/**
 * What the role shares, built once: clients, the queue producers, the diagnoser, incidents and,
 * where the role talks to Slack (web, workers), the Slack side and the remediation flow. The
 * watcher alone only queues incident jobs: it loads no Slack client.
 */
async function buildServices(options: ServeOptions, parts: RoleParts) {
  const cluster = options.role === 'agent' ? (options.cluster ?? null) : null;
  const config = cluster === null ? options.config : agentConfig(options.config, cluster);
  const logger = options.logger ?? createLogger({ level: config.logLevel, redact: redactDeep });
  const kubeConfig = options.kubeConfig ?? loadKubeConfig(config.kubeconfig ? { file: config.kubeconfig } : {});
  const { requestTimeoutMs: timeoutMs, qps, burst } = config.kubernetes;
  limitRequests(kubeConfig, { timeoutMs, qps, burst });
  const prefix = clusterQueuePrefix(options.queuePrefix ?? 'bull', cluster, isRedisCluster(config.redisUrl));
  const metrics = createBotMetrics();
  const queue = clusterJobQueueOf(config, prefix, logger);
  observeQueue(metrics, queue);
  // the signature files are checked at start (serve loads them before this); the playbooks load with the first diagnosis
  const signatures = options.signatures ?? signatureCatalog(config.diagnosis.signatureFiles);
  const diagnose = lazyDiagnoser(kubeConfig, config.diagnosis, () => signatures);
  if (parts.workers) void diagnose.preload().catch((e: unknown) => logger.warn(`diagnoser: ${String(e)}`));
  let talk = null;
  if (parts.web || parts.workers) {
    const slack = (await import('./slack-side.js')).createSlackSide(config, metrics, logger, cluster, {
      redis: queue.connection,
      keyPrefix: `${prefix}:${config.queue.name}`,
    });
    const remediation = createRemediationDeps({
      config,
      kubeConfig,
      redis: queue.connection,
      keyPrefix: `${prefix}:${config.queue.name}`,
      notify: slack.notify.remediation,
      groups: slack.groups,
      enqueue: async (job) => void (await queue.add(job)),
      diagnose,
      warn: (m) => logger.warn(m),
      ...(options.now ? { now: options.now } : {}),
    });
    talk = { slack, remediation };
  }
  const incidents = startIncidents({
    config,
    runWorker: parts.workers,
    runWatcher: parts.watcher,
    kubeConfig,
    connection: queue.connection,
    prefix,
    ...(talk ? { notify: talk.slack.notify.incidents } : {}),
    ...(talk ? { offerFixes: incidentFixes(talk.remediation) } : {}),
    diagnose,
    logger,
    ...options.incidents,
  });
  const jobKind = (job: { data?: unknown } | undefined) =>
    String((job?.data as { kind?: unknown } | undefined)?.kind ?? 'unknown');
  incidents.worker?.on('completed', (job) => metrics.incidentJobDone(jobKind(job), 'done'));
  incidents.worker?.on('failed', (job) => metrics.incidentJobDone(jobKind(job), 'failed'));
  if (incidents.watcher) metrics.observeWatcher(incidents.watcher);
  const routes = healthRoutes({
    pingRedis: () => queue.ping(),
    kubeConfig,
    metrics,
    ...(options.now ? { now: options.now } : {}),
  });
  return { cluster, config, logger, kubeConfig, prefix, metrics, queue, diagnose, talk, incidents, routes };
}

type Services = Awaited<ReturnType<typeof buildServices>>;
type SlackFacing = NonNullable<Services['talk']>;

/** The parts the role runs; `httpClosers` stop taking requests (Slack, the health server). */
async function startParts(
  s: Services,
  parts: RoleParts,
  httpClosers: Array<() => Promise<unknown>>,
): Promise<{ app: App | null; worker: Worker | null; port: number; metricsPort: number; mcpUrl: string | null }> {
  const slackParts = s.talk
    ? await startSlackParts(s, s.talk, parts, httpClosers)
    : { app: null, worker: null, port: 0, mcpUrl: null };
  try {
    const ops = await startMetricsServer(s.routes, s.config.metricsPort);
    httpClosers.push(ops.close);
    return { ...slackParts, port: slackParts.port || ops.port, metricsPort: ops.port };
  } catch (error) {
    await slackParts.worker?.close(true).catch(() => undefined);
    throw error;
  }
}

/** The cluster job worker and the Slack listeners, as the role runs them. */
async function startSlackParts(
  s: Services,
  talk: SlackFacing,
  parts: RoleParts,
  httpClosers: Array<() => Promise<unknown>>,
): Promise<{ app: App | null; worker: Worker | null; port: number; mcpUrl: string | null }> {
  const { config, queue, logger } = s;
  const { slack, remediation } = talk;
  let app: App | null = null;
  let port = 0;
  let mcpUrl: string | null = null;
  const commands = {
    config,
    diagnoses: { queue, notify: slack.notify.diagnosis },
    queue,
    remediation,
    mutes: s.incidents.mutes,
    metrics: s.metrics,
    logger,
    clusterName: s.cluster ?? s.kubeConfig.getCurrentCluster()?.name ?? '',
  };
  // a cluster's agent runs the commands the web process hands over, as if they were typed here
  const runForwardedCommand = async (data: CommandJobData): Promise<void> => {
    const { channel, user, threadTs, clickedTs } = data;
    await runCommand(data.text, {
      deps: commands,
      channel,
      user,
      ...(threadTs ? { threadTs } : {}),
      // a button's command: the rollout view it was clicked on shows the traffic after the change
      ...(clickedTs ? { clickedTs } : {}),
      ...(data.requestId ? { requestId: data.requestId } : {}),
      // the web process told the asker it is at work when it handed the command over
      progressShown: true,
      reply: (r) => slack.poster.ephemeral(channel, user, renderCommandReply(r), threadTs),
    });
  };
  // the MCP tools' dependencies, for the agent's forwarded tool calls and for the MCP endpoint
  const mcpWiring = {
    config,
    kubeConfig: s.kubeConfig,
    diagnose: s.diagnose,
    remediation,
    permalink: slack.permalink,
    logger,
  };
  // and the tool calls of its MCP endpoint (their modules load with the first call)
  let mcpCalls: Promise<(data: McpJobData) => Promise<McpCallResult>> | null = null;
  const runMcpCall = async (data: McpJobData): Promise<McpCallResult> => {
    mcpCalls ??= import('./mcp-wiring.js').then((m) => m.runMcpCallOf(mcpWiring));
    return (await mcpCalls)(data);
  };
  // each part's modules load only when the role runs it (the watcher needs neither Bolt nor the cluster job worker)
  const worker = parts.workers
    ? (await import('./cluster-job-worker.js')).startClusterJobWorker({
        config,
        prefix: s.prefix,
        kubeConfig: s.kubeConfig,
        diagnose: s.diagnose,
        // where this process leads the watcher, a command's diagnosis starts from the informer's object
        held: (t) => s.incidents.watcher?.inferenceService(t.namespace, t.name),
        store: queue.store,
        rememberVerdictRoot: (channel, rootTs, target) => queue.rememberVerdictRoot(channel, rootTs, target),
        notify: slack.notify.diagnosis,
        remediation,
        metrics: s.metrics,
        logger,
        clusterName: commands.clusterName,
        ...(s.cluster !== null ? { runForwardedCommand, runMcpCall } : {}),
      })
    : null;
  try {
    if (parts.web) {
      const { startWeb } = await import('./web.js');
      const web = await startWeb(
        config,
        [],
        { commands, poster: slack.poster, remediation, logger },
        { inboxKeyPrefix: `${s.prefix}:${config.queue.name}` },
      );
      app = web.app;
      httpClosers.push(web.stop);
      port = web.port;
      // MCP for shared agents (MCP_PORT, off by default): its modules load only when it is on
      const mcp = config.mcp.port === null ? null : await (await import('./mcp-wiring.js')).startMcpEndpoint(mcpWiring);
      if (mcp) httpClosers.push(mcp.close);
      mcpUrl = mcp?.url ?? null;
    }
  } catch (error) {
    await worker?.close(true).catch(() => undefined);
    throw error;
  }
  return { app, worker, port, mcpUrl };
}

/** Which process this is, given the config: a multi-cluster web process, an agent, or today's roles. */
function checkRole(options: ServeOptions, role: ServeRole): void {
  const clusters = options.config.clusters;
  if (!clusters) {
    if (role === 'agent') throw new ConfigError('--role agent: needs clusters: in the config (docs/multi-cluster.md)');
    return;
  }
  const slack = options.config.slack;
  if (role === 'web' && !slack.socketMode && !slack.signingSecret)
    throw new ConfigError('env: SLACK_SIGNING_SECRET: required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)');
  if (role !== 'web' && role !== 'agent')
    throw new ConfigError(
      `--role ${role}: with clusters: in the config, run --role web (Slack) and one --role agent --cluster NAME per cluster`,
    );
  if (role === 'agent') {
    if (!options.cluster)
      throw new ConfigError(`--role agent: needs --cluster NAME (one of ${Object.keys(clusters).join(', ')})`);
    if (!clusters[options.cluster])
      throw new ConfigError(`--cluster ${options.cluster}: not one of clusters (${Object.keys(clusters).join(', ')})`);
  }
}

export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const role = options.role ?? 'all';
  checkRole(options, role);
  if (options.config.clusters && role === 'web') return (await import('./cluster-web.js')).startClusterWeb(options);
  const parts = ROLE_PARTS[role];
  const s = await buildServices(options, parts);
  const { config, logger, queue, incidents } = s;
  const httpClosers: Array<() => Promise<unknown>> = [];
  let started: Awaited<ReturnType<typeof startParts>>;
  try {
    started = await startParts(s, parts, httpClosers);
  } catch (error) {
    for (const c of httpClosers.reverse()) await c().catch(() => undefined);
    await incidents.close().catch(() => undefined);
    await queue.close();
    throw error;
  }
  const { app, worker, port, metricsPort, mcpUrl } = started;
  let heartbeat: RunningHeartbeat | null = null;
  if (s.cluster !== null) {
    heartbeat = startHeartbeat(queue.connection, `${s.prefix}:${config.queue.name}`, {
      identity: options.incidents?.identity ?? `${hostname()}-${process.pid}`,
      version: packageVersion(),
      intervalMs: config.agents.heartbeatMs,
      warn: logger.warn,
    });
    await heartbeat.ready;
  }
  logger.debug('config', {
    namespaces: config.namespaces ?? 'all',
    alerts: config.alerts,
    approvers: config.approvers.length,
    queue: config.queue,
    leaderElection: config.leaderElection,
    redis: describeRedis(config.redisUrl),
    prefix: s.prefix,
  });
  logger.info(
    `isvc-doctor serve: role ${role}${s.cluster !== null ? ` (cluster ${s.cluster})` : ''}, ${config.slack.socketMode ? 'Socket Mode' : 'HTTP'}, port ${port}, metrics port ${metricsPort}, queue ${config.queue.name}, concurrency ${config.queue.concurrency}`,
  );
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    metricsPort,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    queue,
    worker,
    app,
    metrics: s.metrics,
    incidents,
    mcpUrl,
    close: async (closeOptions = {}) => {
      const timeoutMs = closeOptions.timeoutMs ?? config.shutdownTimeoutMs;
      const deadlineAt = Date.now() + timeoutMs;
      const t0 = Date.now();
      logger.info('shutdown: no new Slack requests, releasing the Lease, finishing running jobs', { timeoutMs });
      await heartbeat?.stop();
      for (const c of httpClosers.reverse()) await c().catch(() => undefined);
      if (incidents.watcher) await settledWithin(incidents.watcher.close(), 3000);
      await Promise.all([worker, incidents.worker].flatMap((w) => (w ? [closeWorker(w, deadlineAt, logger)] : [])));
      // each step bounded: with Redis down they would wait for it forever (SIGTERM must still exit)
      await settledWithin(incidents.close(), 3000);
      await settledWithin(queue.close(), 3000);
      logger.info('shutdown: done', { ms: Date.now() - t0 });
    },
  };
}
