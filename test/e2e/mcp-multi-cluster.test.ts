/**
 * MCP over Streamable HTTP on the multi-cluster web process (real processes on loopback: one web
 * process without any kubeconfig serving MCP_PORT, an agent per cluster, two simulators serving
 * different scenarios, one Redis), driven by the SDK's own client: `cluster` is one of the configured
 * names (an enum in the tools' schema), each call runs on that cluster's agent and answers that
 * cluster's verdict (the agents' coded errors are its tool errors), an omitted cluster is the default one (the result says which), an unknown one is
 * a tool error naming the configured clusters, a cluster without a live agent is answered at once,
 * and propose_fix on b posts into b's channel (b's proposal store: an approver's click patches b)
 * while the MCP call itself writes to neither cluster.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RecordedRequest } from '../../src/simulator/request-log.js';
import { removeTempDirs } from '../support/temp-dirs.js';
import { startMultiClusterHarness, SIGNING_SECRET, type MultiClusterHarness } from './multi-cluster-harness.js';
import { postSignedClick, proposalIdOf, proposalMessages, writes } from './remediation-harness.js';
import { textOf } from './slack-harness.js';

const APPROVER = 'U0APPROVER';
const TOKEN = 'mc-agent-token-0123456789abcdef';

let h: MultiClusterHarness;
let client: Client;

/** A port free now (the web process' MCP_PORT: its URL is not printed). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  h = await startMultiClusterHarness({
    scenarios: { a: 'storage-uri-not-found', b: 'oom-exit-code-137' },
    clusters: {
      a: { channels: ['C0A'], alerts: { channel: 'C0AALERT' } },
      b: { channels: ['C0B'], alerts: { channel: 'C0BALERT' } },
      c: {},
    },
    file: {
      defaultCluster: 'a',
      approvers: [APPROVER],
      agents: { heartbeat: '200ms', staleAfter: '5s' },
      remediation: { verifyTimeout: '1s', verifyPoll: '100ms' },
    },
    webEnv: { MCP_PORT: String(port), MCP_TOKENS: `ci-agent=${TOKEN}` },
  });
  await Promise.all([h.startAgent('a'), h.startAgent('b')]);
  client = new Client({ name: 'isvc-doctor-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    }),
  );
}, 120_000);
afterAll(async () => {
  await client?.close();
  await h?.close();
  removeTempDirs();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
/** What a simulator served that could change it: any PATCH, POST, PUT or DELETE but the watcher's Lease. */
const changes = (requests: RecordedRequest[]) =>
  requests.filter((q) => q.method !== 'GET' && !q.resource.startsWith('leases'));
/** The reads of a diagnosis (the agents' watchers read InferenceServices only; their incidents' diagnoses come at start). */
const diagnosisReads = (requests: RecordedRequest[]) =>
  requests.filter((q) => q.resource === 'events' || q.resource.startsWith('pods'));

describe('MCP on the multi-cluster web process', () => {
  it("lists the configured clusters in the tools' schema", async () => {
    const { tools } = await client.listTools();
    for (const name of ['diagnose', 'status', 'rollout', 'propose_fix']) {
      const cluster = tools.find((t) => t.name === name)!.inputSchema.properties!.cluster as {
        enum: string[];
        description: string;
      };
      expect(cluster.enum).toEqual(['a', 'b', 'c']);
      expect(cluster.description).toContain('default: a');
    }
    expect(tools.find((t) => t.name === 'explain_code')!.inputSchema.properties!.cluster).toBeUndefined();
  });

  it("answers each cluster's diagnosis from that cluster", async () => {
    const bBefore = h.sims.b!.requests.length;
    const onB = await call('diagnose', { name: 'sklearn-iris', namespace: 'default', cluster: 'b' });
    expect(onB.isError).toBeFalsy();
    expect(onB.structuredContent).toEqual(expect.objectContaining({ cluster: 'b', rootCause: 'OOM_KILLED' }));
    expect(diagnosisReads(h.sims.b!.requests.slice(bBefore)).length).toBeGreaterThan(0);

    const onA = await call('diagnose', { name: 'sklearn-iris', namespace: 'default', cluster: 'a' });
    expect(onA.structuredContent).toEqual(
      expect.objectContaining({ cluster: 'a', rootCause: 'STORAGE_URI_NOT_FOUND' }),
    );
    expect(JSON.parse(text(onA)).cluster).toBe('a');
  }, 60_000);

  it('reads the default cluster when the call names none, and says so', async () => {
    const r = await call('diagnose', { name: 'sklearn-iris', namespace: 'default' });
    expect(r.structuredContent).toEqual(expect.objectContaining({ cluster: 'a', rootCause: 'STORAGE_URI_NOT_FOUND' }));
    const status = await call('status', { namespace: 'default', cluster: 'b' });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toEqual(
      expect.objectContaining({
        cluster: 'b',
        items: [expect.objectContaining({ name: 'sklearn-iris', rootCause: 'OOM_KILLED' })],
      }),
    );
    const rollout = await call('rollout', { name: 'sklearn-iris', namespace: 'default' });
    expect(rollout.isError).toBeFalsy();
    expect(rollout.structuredContent).toEqual(expect.objectContaining({ cluster: 'a' }));
  }, 60_000);

  it('refuses an unknown cluster with the configured names, and a cluster without an agent at once', async () => {
    const unknown = await call('diagnose', { name: 'sklearn-iris', cluster: 'prod-xx' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('USAGE: unknown cluster "prod-xx" (clusters: a, b, c)');
    const started = Date.now();
    const noAgent = await call('diagnose', { name: 'sklearn-iris', cluster: 'c' });
    expect(noAgent.isError).toBe(true);
    expect(text(noAgent)).toMatch(/^CLUSTER_NO_AGENT: cluster c has no agent connected \(none has connected yet\)/);
    expect(Date.now() - started).toBeLessThan(5000);
    // the server goes on
    expect((await call('explain_code', { code: 'OOM_KILLED' })).isError).toBeFalsy();
    // the agent's coded error comes back as the tool error, as in one cluster
    const missing = await call('rollout', { name: 'no-such-isvc', namespace: 'default', cluster: 'b' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe(
      'ISVC_NOT_FOUND: No InferenceService or LLMInferenceService "no-such-isvc" in namespace default',
    );
  }, 60_000);

  it("posts propose_fix on b into b's channel, writing to neither cluster; b's approver applies it on b", async () => {
    const aBefore = h.sims.a!.requests.length;
    const bBefore = h.sims.b!.requests.length;
    const r = await call('propose_fix', {
      name: 'sklearn-iris',
      namespace: 'default',
      action: 'raise-memory-limit',
      cluster: 'b',
    });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as { proposalId: string; channel: string; permalink: string };
    expect(out).toEqual(expect.objectContaining({ cluster: 'b', proposed: true, applied: false, channel: 'C0BALERT' }));
    expect(out.permalink).toMatch(/\/archives\/C0BALERT\/p\d+$/);
    // the MCP call changed nothing on either cluster: no PATCH or POST, not even a dry run
    expect(changes(h.sims.a!.requests.slice(aBefore))).toEqual([]);
    expect(changes(h.sims.b!.requests.slice(bBefore))).toEqual([]);

    // the proposal is in b's channel, names b, and b's store holds it: the click goes to b's agent
    const proposal = proposalMessages(h.slack, 'C0BALERT').find((c) => proposalIdOf(c) === out.proposalId)!;
    expect(textOf(proposal.body)).toContain('cluster *b*');
    expect(textOf(proposal.body)).toContain('Requested by an assistant over MCP (ci-agent)');
    expect(proposalMessages(h.slack, 'C0AALERT')).toEqual([]);
    expect(
      await postSignedClick(h.eventsUrl, SIGNING_SECRET, {
        actionId: 'remediation.approve',
        value: out.proposalId,
        user: APPROVER,
        channel: 'C0BALERT',
        messageTs: String(proposal.response!.ts),
      }),
    ).toBe(200);
    await h.slack.waitFor(
      () => writes(h.sims.b!.requests, { verb: 'patch', resource: 'inferenceservices' }).length > 0,
      30_000,
    );
    expect(writes(h.sims.a!.requests, { verb: 'patch', resource: 'inferenceservices' })).toEqual([]);
  }, 60_000);
});
