/**
 * MCP over Streamable HTTP (what `serve` runs on MCP_PORT), driven by the SDK's own client against
 * the simulator: a bearer token of the server is required (401 without one or with a wrong one,
 * before anything is read), the check takes no time that depends on how much of a token was right,
 * and each token has its own rate limit (429 with Retry-After, the other tokens unaffected).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { runDiagnosis } from '../../src/diagnosis/run-diagnosis.js';
import { ALL_PLAYBOOKS } from '../../playbooks/index.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { startMcpHttp, tokenChecker, type RunningMcpHttp } from '../../src/mcp/mcp-http.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';

const AGENT = 'agent-token-0123456789abcdefghij';
const OTHER = 'other-token-0123456789abcdefghij';
const RATE = 6;

let sim: RunningSimulator;
let http: RunningMcpHttp;
let clock = 1_000_000;

beforeAll(async () => {
  sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios/raw-deployment-oom')) });
  const kubeConfig = kubeConfigForServer(sim.url);
  const deps = {
    cluster: async () => ({
      kubeConfig,
      defaultNamespace: 'payments-ml',
      settings: { maxMemoryBytes: 64 * 2 ** 30, knativeNamespace: 'knative-serving' },
      diagnose: (target: { namespace: string; name: string }) => runDiagnosis(ALL_PLAYBOOKS, kubeConfig, target),
    }),
  };
  http = await startMcpHttp({
    port: 0,
    host: '127.0.0.1',
    tokens: [
      { name: 'agent', token: AGENT },
      { name: 'other', token: OTHER },
    ],
    ratePerMinute: RATE,
    now: () => clock,
    serverFor: (holder) => createMcpServer(deps, { requester: `mcp:${holder}` }).server,
  });
});

afterAll(async () => {
  await http?.close();
  await sim?.close();
});

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'isvc-doctor-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** One raw JSON-RPC ping, as an agent's HTTP client sends it. */
const ping = (authorization?: string) =>
  fetch(http.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

describe('the bearer token', () => {
  it('is required: 401 without one, with a wrong one, or another scheme; nothing reaches the tools', async () => {
    const before = sim.requests.length;
    for (const auth of [undefined, `Bearer ${AGENT.slice(0, -1)}x`, 'Bearer ', `Basic ${AGENT}`, AGENT]) {
      const res = await ping(auth);
      expect([auth, res.status]).toEqual([auth, 401]);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="isvc-doctor"');
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^UNAUTHORIZED: /);
    }
    await expect(connect('not-a-token-of-this-server-at-all')).rejects.toThrow();
    expect(sim.requests.length).toBe(before);
  });

  it('lets the holder of a token call the tools, as over stdio', async () => {
    clock += 60_000;
    const client = await connect(AGENT);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['diagnose', 'explain_code', 'propose_fix', 'rollout', 'status']);
      const r = (await client.callTool({ name: 'diagnose', arguments: { name: 'fraud-lgbm' } })) as CallToolResult;
      expect(r.structuredContent).toEqual(expect.objectContaining({ rootCause: 'OOM_KILLED' }));
      // no Slack behind this server: the plan comes back, nothing is posted or written
      const before = sim.requests.length;
      const fix = (await client.callTool({
        name: 'propose_fix',
        arguments: { name: 'fraud-lgbm', action: 'raise-memory-limit' },
      })) as CallToolResult;
      expect(fix.isError).toBeFalsy();
      expect(fix.structuredContent).toEqual(
        expect.objectContaining({ proposed: false, applied: false, kubectl: expect.stringMatching(/^kubectl patch /) }),
      );
      expect(
        sim.requests.slice(before).filter((q) => ['patch', 'update', 'create', 'delete'].includes(q.verb)),
      ).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('names the holder of a right token and nobody for a wrong, short or missing one (every token compared)', () => {
    const check = tokenChecker([
      { name: 'agent', token: AGENT },
      { name: 'other', token: OTHER },
    ]);
    expect(check(`Bearer ${AGENT}`)).toBe('agent');
    expect(check(`Bearer ${OTHER}`)).toBe('other');
    expect(check(`Bearer ${AGENT.slice(0, -1)}x`)).toBeNull();
    expect(check('Bearer z')).toBeNull();
    expect(check(AGENT)).toBeNull();
    expect(check(undefined)).toBeNull();
    // how long a check takes by how much of a wrong token was right: `npm run bench -- mcp-token`
  });
});

describe('the rate limit', () => {
  it('holds each token to its own budget per minute: 429 with Retry-After past it, the others unaffected', async () => {
    clock += 120_000; // full budgets
    for (let i = 0; i < RATE; i += 1) expect((await ping(`Bearer ${AGENT}`)).status).toBe(200);
    const limited = await ping(`Bearer ${AGENT}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('10');
    expect(((await limited.json()) as { error: { message: string } }).error.message).toMatch(/^RATE_LIMITED: /);
    expect((await ping(`Bearer ${OTHER}`)).status).toBe(200);
    clock += 10_000; // one request's worth (6 a minute)
    expect((await ping(`Bearer ${AGENT}`)).status).toBe(200);
    expect((await ping(`Bearer ${AGENT}`)).status).toBe(429);
  });
});
