/**
 * The SDK's own MCP client over stdio, talking to the built `isvc-doctor mcp` as an assistant does
 * (a child process, newline-delimited JSON-RPC on its stdin and stdout).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';

export const BIN = path.resolve('dist/src/cli/isvc-doctor.js');

export interface McpStdio {
  client: Client;
  stderr(): string;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectMcpStdio(args: string[], env: Record<string, string> = {}): Promise<McpStdio> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe',
  });
  const errors: Buffer[] = [];
  transport.stderr?.on('data', (b: Buffer) => errors.push(b));
  const client = new Client({ name: 'isvc-doctor-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => Buffer.concat(errors).toString(),
    call: async (name, callArgs) => (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool result's first content item. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}
