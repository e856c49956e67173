/** The MCP tools, by name: the only registry (test/unit/mcp/mcp-tools.test.ts fails for an unregistered file). */
import type { McpTool } from '../mcp-tool.js';
import { diagnoseTool } from './diagnose-tool.js';
import { explainCodeTool } from './explain-code-tool.js';
import { proposeFixTool } from './propose-fix-tool.js';
import { rolloutTool } from './rollout-tool.js';
import { statusTool } from './status-tool.js';

// biome-ignore lint/suspicious/noExplicitAny: each tool keeps its own input type; the server only needs the common shape
export const MCP_TOOLS: readonly McpTool<any>[] = [
  diagnoseTool,
  statusTool,
  rolloutTool,
  explainCodeTool,
  proposeFixTool,
];
