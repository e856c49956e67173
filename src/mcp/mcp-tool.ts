/**
 * One MCP tool: its name, what it does, its input as a zod shape (the SDK derives the JSON schema
 * the assistant sees and checks every call against it), the shape of what it returns, and whether
 * it only reads. `run` returns the tool's JSON or throws a coded error (tool-result.ts).
 */
import type { z, ZodRawShape } from 'zod';
import type { LastReports } from './last-reports.js';
import type { McpDeps } from './mcp-deps.js';

export interface ToolContext {
  deps: McpDeps;
  reports: LastReports;
  /** Who calls (a proposal's requester): "mcp:local" over stdio, "mcp:TOKEN-NAME" over HTTP. */
  requester: string;
}

export interface McpTool<S extends ZodRawShape = ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  output: ZodRawShape;
  /** Reads only (the `readOnlyHint` annotation): every tool but propose_fix. */
  readOnly: boolean;
  run(args: z.objectOutputType<S, z.ZodTypeAny>, ctx: ToolContext): Promise<Record<string, unknown>>;
}

/** Declares a tool, keeping its input type between the schema and `run`. */
export function mcpTool<S extends ZodRawShape>(tool: McpTool<S>): McpTool<S> {
  return tool;
}
