/**
 * The secrets corpus through the MCP tools: each sample written into a failing storage-initializer's
 * log, termination message, modelStatus, a revision condition and a Warning event (as
 * secrets-report.test.ts does for the CLI), then asked of `diagnose`, `status` and `rollout` through
 * the SDK's client (in-process transport, the server `isvc-doctor mcp` runs). Requires 0 leaked.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openCluster } from '../../src/cli/cluster-source.js';
import { mcpCluster } from '../../src/cli/mcp-command.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { formatLeakReport, measureLeaks } from '../fixtures/secrets/measure-leaks.mjs';
import { SECRET_SAMPLES } from '../fixtures/secrets/secret-corpus.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-mcp-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/**
 * measureLeaks' `diagnose NAME -n NS --snapshot DIR -o text|json`, answered by the MCP tools: json is
 * diagnose's structured content; text is every tool's text (diagnose, status, rollout), errors too.
 */
async function runThroughMcp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const at = (flag: string) => args[args.indexOf(flag) + 1]!;
  const [name, namespace] = [args[1]!, at('-n')];
  const open = await openCluster({ snapshot: at('--snapshot') });
  const { server } = createMcpServer({ cluster: async () => mcpCluster(open, undefined) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'isvc-doctor-secrets', version: '1.0.0' });
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
    const call = async (tool: string, a: Record<string, unknown>) =>
      (await client.callTool({ name: tool, arguments: a })) as CallToolResult;
    const diagnosed = await call('diagnose', { name, namespace });
    if (at('-o') === 'json')
      return { code: 1, stdout: JSON.stringify(diagnosed.structuredContent ?? {}), stderr: textOf(diagnosed) };
    const others = [await call('status', { namespace }), await call('rollout', { name, namespace })];
    return { code: 1, stdout: [diagnosed, ...others].map(textOf).join('\n'), stderr: '' };
  } finally {
    await client.close();
    await server.close();
    await open.close();
  }
}

describe('secrets in cluster data, through the MCP tools', () => {
  it('leaks none of the corpus, and shows every sample', async () => {
    // every fourth format (the engine sees all of them in test/unit/logs/redact-corpus.test.ts)
    const samples = SECRET_SAMPLES.filter((_, i) => i % 4 === 0);
    const results = await measureLeaks({ runCli: runThroughMcp, dir: path.join(dir, 'corpus'), samples });
    console.log(formatLeakReport(results));
    expect(results.length).toBeGreaterThanOrEqual(80);
    expect(results.filter((r) => r.leaked.length > 0)).toEqual([]);
    expect(results.filter((r) => !r.shown).map((r) => `${r.sample} in ${r.place}`)).toEqual([]);
  }, 600_000);
});
