/**
 * `serve`'s MCP endpoint (MCP_PORT, off by default): the tools on the bot's own cluster and
 * diagnoser, for shared agents holding a token. propose_fix posts a root message in the service's
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

export async function startMcpEndpoint(w: McpWiring): Promise<RunningMcpHttp | null> {
  const { port, tokens, ratePerMinute } = w.config.mcp;
  if (port === null) return null;
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
  const deps: McpDeps = {
    cluster: async (name) => {
      if (name !== undefined) throw new CodedError('USAGE', 'this server reads one cluster: omit cluster');
      return cluster;
    },
    ...(w.remediation ? { proposals: proposalsVia(w, w.remediation) } : {}),
  };
  // what this process diagnosed for any token: the resources of every request's server
  const reports = new LastReports();
  const running = await startMcpHttp({
    port,
    tokens,
    ratePerMinute,
    serverFor: (holder) => createMcpServer(deps, { reports, requester: `mcp:${holder}` }).server,
    warn: (m) => w.logger.warn(m),
  });
  w.logger.info(
    `mcp: Streamable HTTP on port ${running.port} (/mcp), ${tokens.length} token(s), ${ratePerMinute}/min each`,
  );
  return running;
}
