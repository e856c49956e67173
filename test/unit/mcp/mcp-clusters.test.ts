/**
 * The MCP server of the multi-cluster web process (McpDeps.clusters), over the SDK's in-memory
 * transport with a stand-in for the agents: `cluster` is an enum of the configured names, each call
 * goes to the named cluster (else the default) without `cluster` in its arguments and the result
 * says which was read; an unknown name, or none without a default, is a tool error naming the
 * clusters; an agent's coded error is the tool error. The agent's side (runForwardedCall) checks the
 * arguments again, redacts what it answers, and never throws.
 */
import { describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CodedError } from '../../../src/core/coded-error.js';
import { runForwardedCall } from '../../../src/mcp/forwarded-call.js';
import { LastReports } from '../../../src/mcp/last-reports.js';
import type { McpDeps } from '../../../src/mcp/mcp-deps.js';
import { createMcpServer, REPORT_URI } from '../../../src/mcp/mcp-server.js';

interface Sent {
  cluster: string;
  tool: string;
  args: Record<string, unknown>;
  requester: string;
}

const report = (rootCause: string) => ({
  target: { namespace: 'default', name: 'sklearn-iris', apiVersion: 'serving.kserve.io/v1beta1' },
  ready: false,
  rootCause,
  findings: [],
  stats: { durationMs: 1, apiRequests: 1 },
});

async function connect(defaultName: string | null) {
  const sent: Sent[] = [];
  const deps: McpDeps = {
    cluster: () => Promise.reject(new Error('the web process reads no cluster')),
    clusters: {
      names: ['prod-eu', 'staging'],
      defaultName,
      call: async (cluster, tool, args, requester) => {
        sent.push({ cluster, tool, args, requester });
        if (args.name === 'gone') throw new CodedError('ISVC_NOT_FOUND', 'No InferenceService "gone"');
        return report(cluster === 'prod-eu' ? 'OOM_KILLED' : 'STORAGE_URI_NOT_FOUND');
      },
    },
  };
  const { server } = createMcpServer(deps, { requester: 'mcp:ci' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(b);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { client, call, sent };
}
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('MCP on the multi-cluster web process', () => {
  it("describes cluster as the configured names in each cluster tool's schema", async () => {
    const { client } = await connect('staging');
    const { tools } = await client.listTools();
    const diagnose = tools.find((t) => t.name === 'diagnose')!;
    expect(diagnose.inputSchema.properties!.cluster).toEqual(
      expect.objectContaining({ type: 'string', enum: ['prod-eu', 'staging'] }),
    );
    expect((diagnose.inputSchema.properties!.cluster as { description: string }).description).toMatch(
      /configured name: prod-eu, staging \(default: staging\)/,
    );
    expect(diagnose.outputSchema!.properties!.cluster).toBeDefined();
    expect(tools.find((t) => t.name === 'explain_code')!.inputSchema.properties!.cluster).toBeUndefined();
  });

  it('sends the call to the named cluster, else the default, and says which was read', async () => {
    const { call, sent } = await connect('staging');
    const named = await call('diagnose', { name: 'sklearn-iris', cluster: 'prod-eu' });
    expect(named.structuredContent).toEqual(expect.objectContaining({ cluster: 'prod-eu', rootCause: 'OOM_KILLED' }));
    const omitted = await call('diagnose', { name: 'sklearn-iris', namespace: 'default' });
    expect(omitted.structuredContent).toEqual(
      expect.objectContaining({ cluster: 'staging', rootCause: 'STORAGE_URI_NOT_FOUND' }),
    );
    expect(sent).toEqual([
      { cluster: 'prod-eu', tool: 'diagnose', args: { name: 'sklearn-iris' }, requester: 'mcp:ci' },
      {
        cluster: 'staging',
        tool: 'diagnose',
        args: { name: 'sklearn-iris', namespace: 'default' },
        requester: 'mcp:ci',
      },
    ]);
  });

  it('keeps the last report an agent answered per cluster among the resources', async () => {
    const { client, call } = await connect('staging');
    await call('diagnose', { name: 'sklearn-iris', cluster: 'prod-eu' });
    const { resources } = await client.listResources();
    const prodEu = REPORT_URI('default', 'sklearn-iris', 'prod-eu');
    expect(prodEu).toBe('isvc-doctor://clusters/prod-eu/reports/default/sklearn-iris');
    expect(resources.find((r) => r.uri === prodEu)!.description).toContain('(cluster prod-eu)');
    const read = async (uri: string) =>
      JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text);
    expect(await read(prodEu)).toEqual(expect.objectContaining({ cluster: 'prod-eu', rootCause: 'OOM_KILLED' }));
    // one cluster answered: the cluster-less URI reads it too
    expect(await read(REPORT_URI('default', 'sklearn-iris'))).toEqual(expect.objectContaining({ cluster: 'prod-eu' }));

    // the same namespace/name on another cluster is another service: both are kept
    await call('diagnose', { name: 'sklearn-iris', namespace: 'default' });
    const listed = (await client.listResources()).resources.map((r) => r.uri);
    expect(listed).toEqual(expect.arrayContaining([prodEu, REPORT_URI('default', 'sklearn-iris', 'staging')]));
    expect(await read(prodEu)).toEqual(expect.objectContaining({ rootCause: 'OOM_KILLED' }));
    expect(await read(REPORT_URI('default', 'sklearn-iris', 'staging'))).toEqual(
      expect.objectContaining({ cluster: 'staging', rootCause: 'STORAGE_URI_NOT_FOUND' }),
    );
    await expect(client.readResource({ uri: REPORT_URI('default', 'sklearn-iris') })).rejects.toThrow(
      /REPORT_AMBIGUOUS: default\/sklearn-iris was diagnosed on 2 clusters; read one: isvc-doctor:\/\/clusters\/prod-eu\/reports\/default\/sklearn-iris, isvc-doctor:\/\/clusters\/staging/,
    );
  });

  it('refuses an unknown cluster, or none without a default, naming the clusters; nothing is sent', async () => {
    const { call, sent } = await connect(null);
    const unknown = await call('status', { cluster: 'prod-us' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('USAGE: unknown cluster "prod-us" (clusters: prod-eu, staging)');
    const none = await call('rollout', { name: 'sklearn-iris' });
    expect(none.isError).toBe(true);
    expect(text(none)).toBe('USAGE: which cluster? pass cluster (clusters: prod-eu, staging)');
    expect(sent).toEqual([]);
  });

  it("answers an agent's coded error as the tool error", async () => {
    const { call } = await connect('staging');
    const r = await call('diagnose', { name: 'gone' });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('ISVC_NOT_FOUND: No InferenceService "gone"');
  });
});

describe("the agent's side of a call", () => {
  const token = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
  const deps = (rootCause: string): McpDeps => ({
    cluster: async (name) => {
      if (name !== undefined) throw new CodedError('USAGE', 'this server reads one cluster: omit cluster');
      return {
        kubeConfig: undefined as never,
        defaultNamespace: 'default',
        settings: { maxMemoryBytes: 1, knativeNamespace: 'knative-serving' },
        diagnose: async () => ({ ...report(rootCause), findings: [] }) as never,
      };
    },
  });

  it('runs the tool with its own deps and redacts the answer', async () => {
    const r = await runForwardedCall(deps(`token=${token}`), new LastReports(), {
      tool: 'diagnose',
      args: { name: 'sklearn-iris' },
      requester: 'mcp:ci',
    });
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r)).not.toContain(token);
  });

  it('checks the arguments again and answers errors with their code, never throwing', async () => {
    const reports = new LastReports();
    expect(
      await runForwardedCall(deps('X'), reports, { tool: 'diagnose', args: { name: 'Bad_Name' }, requester: 'r' }),
    ).toEqual({ ok: false, code: 'USAGE', message: expect.stringContaining('not a valid InferenceService name') });
    expect(
      await runForwardedCall(deps('X'), reports, { tool: 'explain_code', args: { code: 'X' }, requester: 'r' }),
    ).toEqual({ ok: false, code: 'USAGE', message: 'no tool explain_code reads a cluster' });
    expect(
      await runForwardedCall(deps('X'), reports, {
        tool: 'diagnose',
        args: { name: 'x', cluster: 'other' },
        requester: 'r',
      }),
    ).toEqual({ ok: false, code: 'USAGE', message: 'this server reads one cluster: omit cluster' });
  });
});
