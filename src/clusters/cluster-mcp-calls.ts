/**
 * The multi-cluster web process' MCP calls: a tool call naming a cluster is routed as a Slack command
 * is (src/commands/route-cluster.ts): no live agent of that cluster is an answer at once (nothing
 * queued); else an `mcp` job on the cluster's queue, which its agent runs with its own reader,
 * diagnoser and remediation flow, and whose result (the tool's JSON or its coded error) the call
 * waits for. The web process never reads a cluster.
 *
 * The wait reads the job's state every few tens of milliseconds (one HGETALL) rather than through
 * BullMQ's QueueEvents, which would hold a blocking Redis connection per cluster in the web process
 * and miss a job finished before its stream reader started.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CodedError } from '../core/coded-error.js';
import type { McpCallResult } from '../queue/jobs/mcp-job.js';
import type { ClusterRoutes } from './cluster-routes.js';

export interface ClusterMcpCalls {
  /** The tool's JSON from the cluster's agent; throws a coded error (no agent, the tool's own, no answer in time). */
  call(
    cluster: string,
    tool: string,
    args: Record<string, unknown>,
    requester: string,
  ): Promise<Record<string, unknown>>;
}

export interface ClusterMcpCallsOptions {
  routes: Pick<ClusterRoutes, 'health' | 'deps'>;
  /** How long a call waits for the agent's answer (queued and run). */
  timeoutMs: number;
  now?: () => number;
}

const POLL_MS = [20, 40, 80, 150];

export function clusterMcpCalls(options: ClusterMcpCallsOptions): ClusterMcpCalls {
  const now = options.now ?? Date.now;
  return {
    async call(cluster, tool, args, requester) {
      const health = await options.routes.health(cluster);
      if (!health.live)
        throw new CodedError(
          'CLUSTER_NO_AGENT',
          `cluster ${cluster} has no agent connected${health.lastSeenAt === null ? ' (none has connected yet)' : ` since ${new Date(health.lastSeenAt).toISOString()}`}: nothing was queued`,
        );
      const { queue } = options.routes.deps(cluster);
      const deadline = now() + options.timeoutMs;
      const { jobId } = await queue.add({ kind: 'mcp', callId: randomUUID(), tool, args, requester, deadline });
      for (let i = 0; ; i++) {
        const job = await queue.queue.getJob(jobId);
        if (!job)
          throw new CodedError('MCP_CALL_LOST', `the call's job on cluster ${cluster} is gone before it answered`);
        if (job.finishedOn) {
          if (job.failedReason)
            throw new CodedError('MCP_CALL_FAILED', `cluster ${cluster}'s agent failed the call: ${job.failedReason}`);
          const result = job.returnvalue as McpCallResult;
          if (!result.ok) throw new CodedError(result.code, result.message);
          return result.json;
        }
        if (now() >= deadline) {
          await job.remove().catch(() => undefined);
          throw new CodedError(
            'MCP_CALL_TIMEOUT',
            `cluster ${cluster}'s agent did not answer within ${Math.round(options.timeoutMs / 1000)}s`,
          );
        }
        await sleep(POLL_MS[Math.min(i, POLL_MS.length - 1)]);
      }
    },
  };
}
