/**
 * `serve`'s MCP endpoint (MCP_PORT, off by default): the tools on the bot's own cluster and
 * diagnoser, for shared agents holding a token. In the multi-cluster web process the endpoint has no
 * cluster of its own: each call runs on the named cluster's agent (an `mcp` job, runMcpCallOf there). propose_fix posts a root message in the service's
 * channel (mcp.channel, else its alerts channel) and the planned proposal in its thread, through the
 * same remediation flow as a diagnosis' offer: the approval rules decide, the apply job writes.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { alertsChannelFor, namespaceAllowed, type AppConfig } from '../config.js';
import { CodedError } from '../core/coded-error.js';
import type { Logger } from '../core/logger.js';
import { answeredReadsOf } from '../diagnosis/run-diagnosis.js';
import { LastReports } from '../mcp/last-reports.js';
import type { McpCluster, McpDeps } from '../mcp/mcp-deps.js';
import { startMcpHttp, type RunningMcpHttp } from '../mcp/mcp-http.js';
import { createMcpServer } from '../mcp/mcp-server.js';
import { planProposal } from '../remediation/plan-proposal.js';
import { postProposal } from '../remediation/post-proposal.js';
import type { RemediationDeps } from '../remediation/remediation-deps.js';
import type { Diagnoser } from './diagnoser.js';
import { clusterMcpCalls } from '../clusters/cluster-mcp-calls.js';
import type { ClusterRoutes } from '../clusters/cluster-routes.js';
import { runForwardedCall } from '../mcp/forwarded-call.js';
import type { McpCallResult, McpJobData } from '../queue/jobs/mcp-job.js';

export interface McpWiring {
  config: Pick<AppConfig, 'mcp' | 'alerts' | 'namespaces' | 'remediation' | 'diagnosis'>;
  kubeConfig: KubeConfig;
  diagnose: Diagnoser;
  /** Absent: remediations are off here, propose_fix returns the plan only. */
  remediation?: RemediationDeps;
  /** The link to a posted message (chat.getPermalink), null when Slack gives none. */
  permalink?(channel: string, ts: string): Promise<string | null>;
  logger: Logger;
}

function proposalsVia(w: McpWiring, remediation: RemediationDeps): NonNullable<McpDeps['proposals']> {
  return {
    async post(request, report) {
      const { target } = request;
      const channel = w.config.mcp.channel ?? alertsChannelFor(w.config, target.namespace);
      if (!channel)
        throw new CodedError(
          'MCP_NO_CHANNEL',
          `no Slack channel for namespace ${target.namespace}: set alerts.channels.${target.namespace}, alerts.channel or mcp.channel`,
        );
      const threadTs = await remediation.notify({
        kind: 'fix-requested',
        target,
        channel,
        requester: request.requester,
        action: request.action,
        findingCode: request.findingCode,
      });
      if (!threadTs) throw new CodedError('SLACK_API_ERROR', `the request could not be posted in ${channel}`);
      const seen = answeredReadsOf(report);
      const p = await planProposal(remediation, { ...request, channel, threadTs, ...(seen ? { seen } : {}) });
      const ts = await postProposal(remediation, p);
      const permalink = ts && w.permalink ? await w.permalink(channel, ts).catch(() => null) : null;
      return { proposalId: p.id, channel, threadTs, permalink, expiresAt: p.expiresAt, plan: p.plan };
    },
  };
}

/** The tools' deps on this process' own cluster (single-cluster `serve`, a cluster's agent). */
export function localMcpDeps(w: McpWiring): McpDeps {
  const cluster: McpCluster = {
    kubeConfig: w.kubeConfig,
    defaultNamespace: 'default',
    settings: {
      maxMemoryBytes: w.config.remediation.maxMemoryBytes,
      knativeNamespace: w.config.diagnosis.knativeNamespace,
    },
    diagnose: (target) => w.diagnose(target),
    checkNamespace: (namespace) => {
      if (namespace === null ? w.config.namespaces !== null : !namespaceAllowed(w.config, namespace))
        throw new CodedError(
          'NAMESPACE_NOT_ALLOWED',
          `${namespace === null ? 'every namespace' : `namespace ${namespace}`} is not one this bot may read (allowed: ${(w.config.namespaces ?? []).join(', ')})`,
        );
    },
  };
  return {
    cluster: async (name) => {
      if (name !== undefined) throw new CodedError('USAGE', 'this server reads one cluster: omit cluster');
      return cluster;
    },
    ...(w.remediation ? { proposals: proposalsVia(w, w.remediation) } : {}),
  };
}

/**
 * A cluster agent's side of the web process' MCP calls (the `mcp` job): the tool run here, on this
 * cluster, with the deps a single-cluster `serve` gives it (propose_fix posts into this cluster's
 * channel through its remediation flow, exactly as there).
 */
export function runMcpCallOf(w: McpWiring): (data: McpJobData) => Promise<McpCallResult> {
  const deps = localMcpDeps(w);
  const reports = new LastReports();
  return (data) => runForwardedCall(deps, reports, data);
}

/** The HTTP endpoint on MCP_PORT (null: off), serving `deps` to each token's holder. */
async function serveMcp(
  config: Pick<AppConfig, 'mcp'>,
  deps: McpDeps,
  logger: Logger,
  what: string,
): Promise<RunningMcpHttp | null> {
  const { port, tokens, ratePerMinute } = config.mcp;
  if (port === null) return null;
  // what this process diagnosed for any token: the resources of every request's server
  const reports = new LastReports();
  const running = await startMcpHttp({
    port,
    tokens,
    ratePerMinute,
    serverFor: (holder) => createMcpServer(deps, { reports, requester: `mcp:${holder}` }).server,
    warn: (m) => logger.warn(m),
  });
  logger.info(
    `mcp: Streamable HTTP on port ${running.port} (/mcp), ${tokens.length} token(s), ${ratePerMinute}/min each, ${what}`,
  );
  return running;
}

export function startMcpEndpoint(w: McpWiring): Promise<RunningMcpHttp | null> {
  return serveMcp(w.config, localMcpDeps(w), w.logger, 'this cluster');
}

/**
 * The multi-cluster web process' endpoint: no cluster of its own; each call runs on the named
 * cluster's agent (else the default cluster's), through that cluster's queue.
 */
export function startClusterMcpEndpoint(w: {
  config: Pick<AppConfig, 'mcp' | 'defaultCluster' | 'queue'>;
  routes: Pick<ClusterRoutes, 'names' | 'health' | 'deps'>;
  logger: Logger;
}): Promise<RunningMcpHttp | null> {
  const calls = clusterMcpCalls({ routes: w.routes, timeoutMs: w.config.queue.jobTimeoutMs + MCP_CALL_MARGIN_MS });
  const deps: McpDeps = {
    cluster: async () => {
      throw new CodedError('USAGE', 'this server reads no cluster itself');
    },
    clusters: { names: w.routes.names, defaultName: w.config.defaultCluster, call: calls.call },
  };
  return serveMcp(w.config, deps, w.logger, `clusters ${w.routes.names.join(', ')}`);
}

/** Past a job's deadline, the time a call waits for it to be picked up and answered. */
const MCP_CALL_MARGIN_MS = 15_000;
