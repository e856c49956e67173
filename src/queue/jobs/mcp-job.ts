/**
 * `mcp` (multi-cluster): a tool call of the web process' MCP endpoint (diagnose, status, rollout,
 * propose_fix) run by the agent of the cluster it names, with that cluster's reader, diagnoser and
 * remediation flow, as the tool runs in a single-cluster `serve`. The web process waits for the
 * job's result (its return value: the tool's JSON, redacted, or its coded error); a call whose caller
 * has stopped waiting (`deadline`) is not run. One attempt: the caller retries, not the queue.
 */
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { jobKind } from './job-kind.js';

export const mcpJobSchema = z.object({
  kind: z.literal('mcp'),
  /** The call's id (the job id's tail). */
  callId: z.string().min(1).max(64),
  tool: z.string().min(1).max(40),
  /** The tool's arguments without `cluster` (the agent reads its own cluster). */
  args: z.record(z.unknown()),
  /** Who calls, as the proposal and the audit log name it ("mcp:TOKEN-NAME"). */
  requester: z.string().min(1).max(200),
  /** Epoch ms after which nobody waits for the answer: the agent skips the call. */
  deadline: z.number(),
});
export type McpJobData = z.infer<typeof mcpJobSchema>;

/** What the agent answers: the tool's JSON, or its error's code and one-line message. */
export type McpCallResult = { ok: true; json: Record<string, unknown> } | { ok: false; code: string; message: string };

export interface McpJobDeps {
  /** A cluster agent's: runs one MCP tool call on its cluster; absent on other workers (the job then fails, unretried). */
  runMcpCall?(data: McpJobData): Promise<McpCallResult>;
}

export const mcpJob = jobKind({
  kind: 'mcp',
  summary: "run an MCP tool call (diagnose, status, rollout, propose_fix) on the named cluster's agent (multi-cluster)",
  addedBy: "the multi-cluster web process' MCP endpoint (clusters/cluster-mcp-calls)",
  schema: mcpJobSchema,
  options: (data) => ({
    jobId: `mcp__${data.callId}`,
    attempts: 1,
    removeOnComplete: { count: 1000, age: 3600 },
    removeOnFail: { count: 1000, age: 3600 },
  }),
  async process(data, _job, deps: McpJobDeps): Promise<{ outcome: 'mcp' } & McpCallResult> {
    if (!deps.runMcpCall) throw new UnrecoverableError('FORWARD_UNSUPPORTED: this worker is not a cluster agent');
    if (Date.now() > data.deadline)
      return { outcome: 'mcp', ok: false, code: 'MCP_CALL_EXPIRED', message: 'the caller stopped waiting' };
    return { outcome: 'mcp', ...(await deps.runMcpCall(data)) };
  },
});
