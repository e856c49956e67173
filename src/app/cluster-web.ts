/**
 * The multi-cluster web process (`serve --role web` with `clusters:` in the config): it talks to
 * Slack only and holds no cluster credentials. Per cluster it has that cluster's queue producer,
 * mutes and notifiers (messages name the cluster); commands are routed by src/commands/route-cluster,
 * clicks go to the proposal's cluster agent as jobs, and so do the tool calls of its MCP endpoint
 * (MCP_PORT: `cluster` names one of the clusters). It never diagnoses, plans or applies.
 */
import { createBotMetrics } from '../bot/metrics.js';
import { healthRoutes } from '../bot/health-routes.js';
import { clusterNamedPoster } from '../clusters/cluster-named-poster.js';
import { clusterRoutes, type ClusterPart } from '../clusters/cluster-routes.js';
import type { CommandDeps } from '../commands/command.js';
import { alertsConfigured } from '../config.js';
import { createLogger } from '../core/logger.js';
import { renderNoAgent } from '../notify/slack-command-replies.js';
import { slackDiagnosisNotifier } from '../notify/slack-diagnosis-notifier.js';
import { slackIncidentNotifier } from '../notify/slack-incident-notifier.js';
import { clusterQueuePrefix } from '../queue/queue-prefix.js';
import type { Click } from '../remediation/decide-proposal.js';
import { PROPOSAL_ID } from '../remediation/proposal.js';
import { ProposalStore } from '../remediation/proposal-store.js';
import { renderRefusal } from '../render/slack/render-proposal.js';
import { startIncidents, type RunningIncidents } from './incidents-wiring.js';
import { startMetricsServer } from './metrics-server.js';
import type { RunningServe, ServeOptions } from './serve.js';
import { createSlackSide } from './slack-side.js';
import { agentConfig } from './cluster-config.js';
import { startWeb } from './web.js';
import { clusterJobQueueOf } from './cluster-job-queue-of.js';

export { agentConfig } from './cluster-config.js';

export async function startClusterWeb(options: ServeOptions): Promise<RunningServe> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const metrics = createBotMetrics();
  const slack = createSlackSide(config, metrics, logger);
  const base = options.queuePrefix ?? 'bull';
  const parts = new Map<string, ClusterPart & { proposals: ProposalStore; incidents: RunningIncidents }>();
  for (const name of Object.keys(config.clusters!)) {
    const prefix = clusterQueuePrefix(base, name);
    const queue = clusterJobQueueOf(config, prefix, logger);
    const named = clusterNamedPoster(slack.poster, name);
    const keyPrefix = `${prefix}:${config.queue.name}`;
    const incidents = startIncidents({
      config: agentConfig(config, name),
      runWorker: false,
      runWatcher: false,
      kubeConfig: null,
      connection: queue.connection,
      prefix,
      notify: slackIncidentNotifier(named),
      diagnose: () => Promise.reject(new Error('the web process does not diagnose')),
      logger,
    });
    const mutes = config.clusters![name]!.alertsChannel || alertsConfigured(config) ? incidents.mutes : undefined;
    parts.set(name, {
      diagnoses: { queue, notify: slackDiagnosisNotifier(named) },
      queue,
      ...(mutes ? { mutes } : {}),
      keyPrefix,
      proposals: new ProposalStore(queue.connection, keyPrefix),
      incidents,
    });
  }
  const routes = clusterRoutes(config, parts);
  const first = [...parts.values()][0]!;
  const commands: CommandDeps = {
    config,
    diagnoses: first.diagnoses,
    queue: first.queue,
    metrics,
    logger,
    clusters: routes,
  };

  /** A click goes to the cluster whose store holds the proposal, when an agent of it is live. */
  const clicks = async (decision: 'approve' | 'reject', click: Click): Promise<void> => {
    const found = PROPOSAL_ID.test(click.proposalId) ? await findProposalCluster(parts, click.proposalId) : null;
    if (!found) {
      await slack.poster.ephemeral(
        click.channel,
        click.user,
        renderRefusal('PROPOSAL_NOT_FOUND', 'this proposal is unknown or too old'),
      );
      return;
    }
    const health = await routes.health(found);
    if (!health.live) {
      await slack.poster.ephemeral(click.channel, click.user, renderNoAgent(found, health.lastSeenAt));
      return;
    }
    await parts.get(found)!.queue.add({
      kind: 'click',
      decision,
      click,
      ...(click.requestId ? { requestId: click.requestId } : {}),
    });
  };

  const closers: Array<() => Promise<unknown>> = [];
  const closeQueues = async () => {
    for (const p of parts.values()) {
      await p.incidents.close().catch(() => undefined);
      await p.queue.close();
    }
  };
  try {
    // the web process' request inbox is its own (hash-tagged: one slot on Redis Cluster)
    const web = await startWeb(
      config,
      [],
      { commands, poster: slack.poster, clicks, logger },
      { inboxKeyPrefix: `${clusterQueuePrefix(base, null, true)}:${config.queue.name}` },
    );
    closers.push(web.stop);
    const ops = await startMetricsServer(
      healthRoutes({ pingRedis: () => first.queue.ping(), kubeConfig: null, metrics }),
      config.metricsPort,
    );
    closers.push(ops.close);
    // MCP for shared agents (MCP_PORT, off by default): each call runs on the cluster it names
    const mcp =
      config.mcp.port === null
        ? null
        : await (await import('./mcp-wiring.js')).startClusterMcpEndpoint({ config, routes, logger });
    if (mcp) closers.push(mcp.close);
    const port = web.port || ops.port;
    logger.info(
      `isvc-doctor serve: role web (clusters ${routes.names.join(', ')}), ${config.slack.socketMode ? 'Socket Mode' : 'HTTP'}, port ${port}, metrics port ${ops.port}, no cluster credentials`,
    );
    return {
      port,
      url: `http://127.0.0.1:${port}`,
      metricsPort: ops.port,
      metricsUrl: `http://127.0.0.1:${ops.port}`,
      mcpUrl: mcp?.url ?? null,
      queue: first.queue,
      worker: null,
      app: web.app,
      metrics,
      incidents: first.incidents,
      close: async () => {
        for (const c of closers.reverse()) await c().catch(() => undefined);
        await closeQueues();
      },
    };
  } catch (error) {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await closeQueues();
    throw error;
  }
}

async function findProposalCluster(
  parts: ReadonlyMap<string, { proposals: ProposalStore }>,
  id: string,
): Promise<string | null> {
  const hits = await Promise.all([...parts].map(async ([name, p]) => ((await p.proposals.get(id)) ? name : null)));
  return hits.find((h) => h !== null) ?? null;
}
