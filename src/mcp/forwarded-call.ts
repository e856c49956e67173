/**
 * The agent's side of a multi-cluster MCP call (the `mcp` job): the tool named, its arguments checked
 * against its own schema again (they crossed Redis), run with this agent's deps exactly as a
 * single-cluster `serve` runs it; the answer is the tool's JSON, redacted before it leaves the
 * cluster, or its error's code and message. Never throws: the web process turns an error into the
 * tool error the caller sees.
 */
import { z } from 'zod';
import { errorCode, errorMessage } from '../core/error-message.js';
import { redactText } from '../logs/redact.js';
import type { McpCallResult } from '../queue/jobs/mcp-job.js';
import type { LastReports } from './last-reports.js';
import type { McpDeps } from './mcp-deps.js';
import { redactDeep } from './tool-result.js';
import { MCP_TOOLS } from './tools/index.js';

export interface ForwardedCall {
  tool: string;
  args: Record<string, unknown>;
  requester: string;
}

export async function runForwardedCall(
  deps: McpDeps,
  reports: LastReports,
  call: ForwardedCall,
): Promise<McpCallResult> {
  const tool = MCP_TOOLS.find((t) => t.name === call.tool && 'cluster' in t.input);
  if (!tool) return { ok: false, code: 'USAGE', message: `no tool ${call.tool.slice(0, 40)} reads a cluster` };
  const parsed = z.object(tool.input).strict().safeParse(call.args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      code: 'USAGE',
      message: `${issue?.path.join('.') ?? ''}: ${issue?.message.replace(/^USAGE: /, '') ?? 'bad arguments'}`,
    };
  }
  try {
    const json = await tool.run(parsed.data, { deps, reports, requester: call.requester });
    return { ok: true, json: redactDeep(json) };
  } catch (error) {
    return { ok: false, code: errorCode(error), message: redactText(errorMessage(error, 2000)) };
  }
}
