/**
 * MCP `rollout` on an LLMInferenceService (KServe 0.20 routing group), over the SDK's in-memory
 * transport against the simulator: the members of its group with the share each weight asks for and
 * the share it is routed, the canary (the service asked for) not ready; a name that is neither kind
 * is ISVC_NOT_FOUND naming both.
 */
import path from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import type { McpDeps } from '../../../src/mcp/mcp-deps.js';
import { createMcpServer } from '../../../src/mcp/mcp-server.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

let sim: RunningSimulator | undefined;
afterAll(async () => {
  await sim?.close();
});

it('shows the routing group of an LLMInferenceService, and names both kinds when neither exists', async () => {
  sim = await startSimulator({
    snapshot: await loadSnapshot(
      path.resolve('test/scenarios/llm-group-canary-one-replica-crashing-still-weighted-kserve-0-20'),
    ),
  });
  const kubeConfig = kubeConfigForServer(sim.url);
  const deps = {
    cluster: async () => ({ kubeConfig, defaultNamespace: 'llm' }),
  } as unknown as McpDeps;
  const { server } = createMcpServer(deps, { requester: 'mcp:test' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(b);
  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'rollout', arguments: args })) as CallToolResult;

  const r = await call({ name: 'qwen3-coder-v2' });
  expect(r.isError).toBeFalsy();
  expect(r.structuredContent).toEqual(
    expect.objectContaining({
      target: { namespace: 'llm', name: 'qwen3-coder-v2', apiVersion: 'serving.kserve.io/v1alpha2' },
      canaryPercent: 10,
    }),
  );
  const rows = (r.structuredContent as { revisions: Array<Record<string, unknown>> }).revisions;
  expect(rows.map((x) => [x.role, x.name, x.specPercent, x.statusPercent, x.ready])).toEqual([
    ['canary', 'qwen3-coder-v2', 10, 10, false],
    ['stable', 'qwen3-coder-v1', 90, 90, null],
  ]);
  const missing = await call({ name: 'no-such-model' });
  expect(missing.isError).toBe(true);
  expect((missing.content[0] as { text: string }).text).toBe(
    'ISVC_NOT_FOUND: No InferenceService or LLMInferenceService "no-such-model" in namespace llm',
  );
  await client.close();
});
