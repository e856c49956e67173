/**
 * `isvc-doctor mcp` over stdio, driven by the SDK's own client against the simulator: the tools and
 * their annotations, each tool's answer (the CLI's `-o json`), the kubeconfig / context / namespace
 * rules of the CLI, and every failure as a coded tool error after which the server still answers:
 * bad arguments (schema), a forbidden namespace, an unreachable cluster, an unknown context.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { ensureBuilt } from '../support/ensure-built.js';
import { connectMcpStdio, textOf, type McpStdio } from '../support/mcp-stdio-client.js';
import { runCliMain } from '../support/run-cli.mjs';
import { tempDir } from '../support/temp-dirs.js';
import { useTwoNamespaceCluster } from '../support/two-namespace-cluster.js';

jest.setTimeout(180_000);

const cluster = useTwoNamespaceCluster();
let mcp: McpStdio;

beforeAll(async () => {
  ensureBuilt();
  mcp = await connectMcpStdio(['--kubeconfig', cluster().kubeconfig]);
}, 300_000);

afterAll(async () => {
  await mcp?.close();
});

const resourceText = (r: { contents: Array<object> }) =>
  String((r.contents[0] as { text?: unknown } | undefined)?.text);
const withoutStats = (json: unknown) => ({ ...(json as Record<string, unknown>), stats: undefined });

it('lists the tools, each read-only but propose_fix, with JSON schemas from the zod types', async () => {
  const { tools } = await mcp.client.listTools();
  const names = tools.map((t) => t.name);
  expect(names.sort()).toEqual(['diagnose', 'explain_code', 'propose_fix', 'rollout', 'status']);
  for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(t.name !== 'propose_fix');
  const diagnose = tools.find((t) => t.name === 'diagnose')!;
  expect(diagnose.inputSchema.required).toEqual(['name']);
  expect(diagnose.inputSchema.properties?.name).toEqual(
    expect.objectContaining({ type: 'string', maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' }),
  );
  expect(diagnose.outputSchema?.properties).toEqual(expect.objectContaining({ rootCause: expect.anything() }));
});

it("diagnoses in the kubeconfig context's namespace and answers the CLI's -o json", async () => {
  const r = await mcp.call('diagnose', { name: 'fraud-lgbm' });
  expect(r.isError).toBeFalsy();
  const cli = await runCliMain(main, ['diagnose', 'fraud-lgbm', '--kubeconfig', cluster().kubeconfig, '-o', 'json']);
  expect(withoutStats(r.structuredContent)).toEqual(withoutStats(JSON.parse(cli.stdout)));
  expect(r.structuredContent).toEqual(expect.objectContaining({ rootCause: 'OOM_KILLED' }));
  expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
});

it('takes a namespace, and another context of the kubeconfig as cluster', async () => {
  const r = await mcp.call('diagnose', { name: 'sklearn-iris', namespace: 'default' });
  expect(r.structuredContent).toEqual(expect.objectContaining({ ready: true, rootCause: null }));
  const plain = await mcp.call('diagnose', { name: 'sklearn-iris', cluster: 'plain' });
  expect((plain.structuredContent as { target: { namespace: string } }).target.namespace).toBe('default');
  const ghost = await mcp.call('diagnose', { name: 'sklearn-iris', cluster: 'nowhere' });
  expect(ghost.isError).toBe(true);
  expect(textOf(ghost)).toMatch(/^USAGE: context "nowhere" does not exist/);
});

it('lists a namespace or all of them with the root causes, as status -o json', async () => {
  const r = await mcp.call('status', {});
  const cli = await runCliMain(main, ['status', '--kubeconfig', cluster().kubeconfig, '-o', 'json']);
  expect(r.structuredContent).toEqual({ namespace: 'payments-ml', ...JSON.parse(cli.stdout) });
  const all = await mcp.call('status', { allNamespaces: true });
  const items = (all.structuredContent as { items: Array<{ name: string; rootCause: string | null }> }).items;
  expect(items.map((i) => i.name).sort()).toEqual(['fraud-lgbm', 'sklearn-iris', 'sklearn-iris-v2']);
  const both = await mcp.call('status', { namespace: 'default', allNamespaces: true });
  expect(textOf(both)).toBe('USAGE: use either namespace or allNamespaces, not both');
});

it('shows the rollout view, and says when there is no such InferenceService', async () => {
  const r = await mcp.call('rollout', { name: 'fraud-lgbm' });
  expect(r.isError).toBeFalsy();
  expect(r.structuredContent).toEqual(
    expect.objectContaining({
      target: { namespace: 'payments-ml', name: 'fraud-lgbm', apiVersion: 'serving.kserve.io/v1beta1' },
      canaryPercent: null,
    }),
  );
  const missing = await mcp.call('rollout', { name: 'no-such-model' });
  expect(missing.isError).toBe(true);
  expect(textOf(missing)).toBe(
    'ISVC_NOT_FOUND: No InferenceService or LLMInferenceService "no-such-model" in namespace payments-ml',
  );
});

it('explains a code from the catalog, and names close codes for a wrong one', async () => {
  const r = await mcp.call('explain_code', { code: 'OOM_KILLED' });
  expect(r.structuredContent).toEqual(
    expect.objectContaining({ code: 'OOM_KILLED', severity: 'error', next: expect.stringContaining('<name>') }),
  );
  const wrong = await mcp.call('explain_code', { code: 'OOM' });
  expect(wrong.isError).toBe(true);
  expect(textOf(wrong)).toMatch(/^UNKNOWN_CODE: no finding code "OOM" \(did you mean OOM_KILLED/);
});

it('plans a fix without writing anything: the plan, the diff, the risk and the kubectl command', async () => {
  const before = cluster().sim.requests.length;
  const r = await mcp.call('propose_fix', { name: 'fraud-lgbm', action: 'raise-memory-limit' });
  expect(r.isError).toBeFalsy();
  const out = r.structuredContent as unknown as { plan: { diff: string[] }; kubectl: string };
  expect(out).toEqual(expect.objectContaining({ proposed: false, applied: false, findingCode: 'OOM_KILLED' }));
  expect(out.plan).toEqual(
    expect.objectContaining({
      action: 'raise-memory-limit',
      object: 'InferenceService payments-ml/fraud-lgbm',
      checkedBy: 'reads',
      risk: expect.stringMatching(/^(low|medium|high)$/),
    }),
  );
  expect(out.plan.diff.join('\n')).toMatch(/- {3}1Gi[\s\S]*\+ {3}2Gi/);
  expect(out.kubectl).toMatch(
    /^kubectl patch inferenceservice\.serving\.kserve\.io fraud-lgbm -n payments-ml --type merge -p '\{"spec":/,
  );
  const during = cluster().sim.requests.slice(before);
  expect(during.filter((q) => ['patch', 'update', 'create', 'delete'].includes(q.verb))).toEqual([]);
  // a fix the diagnosis does not offer, an action that does not exist
  const ready = await mcp.call('propose_fix', {
    name: 'sklearn-iris',
    namespace: 'default',
    action: 'raise-memory-limit',
  });
  expect(textOf(ready)).toMatch(
    /^REMEDIATION_NOT_OFFERED: the diagnosis of default\/sklearn-iris offers no raise-memory-limit/,
  );
  const unknown = await mcp.call('propose_fix', { name: 'fraud-lgbm', action: 'delete-everything' });
  expect(unknown.isError).toBe(true);
  expect(textOf(unknown)).toMatch(/Input validation error/);
});

it('refuses bad arguments by the schema, with the CLI words, and keeps answering', async () => {
  for (const args of [{ name: 'Bad_Name' }, { name: 'x'.repeat(64) }, { name: 'ok', namespace: 'a/b' }]) {
    const r = await mcp.call('diagnose', args);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/USAGE: not a valid (InferenceService name|namespace)/);
  }
  const missing = await mcp.call('diagnose', {});
  expect(missing.isError).toBe(true);
  expect(textOf(missing)).toMatch(/Input validation error/);
  expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(3);
});

it('serves the catalog, docs/findings.md and the last report of each service it diagnosed', async () => {
  await mcp.call('diagnose', { name: 'fraud-lgbm' });
  const { resources } = await mcp.client.listResources();
  const uris = resources.map((r) => r.uri);
  expect(uris).toEqual(
    expect.arrayContaining([
      'isvc-doctor://findings/catalog',
      'isvc-doctor://docs/findings.md',
      'isvc-doctor://reports/payments-ml/fraud-lgbm',
    ]),
  );
  const doc = await mcp.client.readResource({ uri: 'isvc-doctor://docs/findings.md' });
  expect(resourceText(doc)).toContain('## OOM_KILLED');
  const catalog = JSON.parse(resourceText(await mcp.client.readResource({ uri: 'isvc-doctor://findings/catalog' })));
  expect(catalog.codes.map((c: { code: string }) => c.code)).toContain('STORAGE_URI_NOT_FOUND');
  const report = JSON.parse(
    resourceText(await mcp.client.readResource({ uri: 'isvc-doctor://reports/payments-ml/fraud-lgbm' })),
  );
  expect(report.rootCause).toBe('OOM_KILLED');
});

describe("KServe's LLMInferenceService", () => {
  let llm: McpStdio;
  beforeAll(async () => {
    llm = await connectMcpStdio(['--snapshot', 'test/scenarios/llm-gke-gateway-refuses-route-timeouts-kserve-0-19']);
  });
  afterAll(() => llm?.close());

  it('is diagnosed by name, and with kind llmisvc; kind isvc looks for an InferenceService only', async () => {
    for (const args of [{}, { kind: 'llmisvc' }]) {
      const r = await llm.call('diagnose', { name: 'gemma-3-12b', namespace: 'models', ...args });
      expect(r.structuredContent).toEqual(
        expect.objectContaining({
          rootCause: 'LLM_ROUTE_NOT_ACCEPTED',
          target: expect.objectContaining({ kind: 'llmisvc' }),
        }),
      );
    }
    const isvc = await llm.call('diagnose', { name: 'gemma-3-12b', namespace: 'models', kind: 'isvc' });
    expect(isvc.structuredContent).toEqual(expect.objectContaining({ rootCause: 'ISVC_NOT_FOUND' }));
  });
});

describe('a namespace the role may not read', () => {
  let denied: McpStdio;
  beforeAll(async () => {
    const dir = path.join(tempDir('isvc-doctor-mcp-denied-'), 'snapshot');
    cpSync('test/scenarios/raw-deployment-oom', dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'access.yaml'),
      [
        'deny:',
        '- {verb: get, resource: inferenceservices, namespace: payments-ml}',
        '- {verb: list, resource: inferenceservices, namespace: payments-ml}',
        '',
      ].join('\n'),
    );
    denied = await connectMcpStdio(['--snapshot', dir]);
  });
  afterAll(() => denied?.close());

  it('is a coded tool error naming what was denied and the rule that would allow it', async () => {
    const r = await denied.call('diagnose', { name: 'fraud-lgbm', namespace: 'payments-ml' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      /^BOT_FORBIDDEN: The bot may not get inferenceservices.serving.kserve.io in namespace payments-ml/,
    );
    const list = await denied.call('status', { namespace: 'payments-ml' });
    expect(list.isError).toBe(true);
    expect(textOf(list)).toMatch(
      /^KUBE_FORBIDDEN: forbidden: cannot list inferenceservices .* in namespace payments-ml/,
    );
    const rollout = await denied.call('rollout', { name: 'fraud-lgbm', namespace: 'payments-ml' });
    expect(textOf(rollout)).toMatch(/^KUBE_FORBIDDEN: forbidden: cannot get inferenceservices/);
    // a snapshot is one cluster
    expect(textOf(await denied.call('diagnose', { name: 'fraud-lgbm', cluster: 'other' }))).toMatch(/^USAGE: /);
    expect((await denied.call('explain_code', { code: 'BOT_FORBIDDEN' })).isError).toBeFalsy();
  });
});

describe('a cluster that cannot be reached', () => {
  let unreachable: McpStdio;
  beforeAll(async () => {
    const kubeconfig = path.join(tempDir('isvc-doctor-mcp-unreachable-'), 'config');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: gone, cluster: {server: "http://127.0.0.1:9"}}]',
        'users: [{name: u, user: {}}]',
        'contexts: [{name: gone, context: {cluster: gone, user: u, namespace: ml}}]',
        'current-context: gone',
        '',
      ].join('\n'),
    );
    unreachable = await connectMcpStdio(['--kubeconfig', kubeconfig]);
  });
  afterAll(() => unreachable?.close());

  it('is a coded tool error for each tool that reads it, and the server goes on', async () => {
    for (const [tool, args] of [
      ['diagnose', { name: 'fraud-lgbm' }],
      ['status', {}],
      ['rollout', { name: 'fraud-lgbm' }],
    ] as const) {
      const r = await unreachable.call(tool, args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^KUBE_(UNREACHABLE|TIMEOUT): /);
    }
    expect((await unreachable.call('explain_code', { code: 'OOM_KILLED' })).isError).toBeFalsy();
  });
});

it('refuses a kubeconfig that does not exist before the protocol starts (exit 2, as the CLI)', async () => {
  const r = await runCliMain(main, ['mcp', '--kubeconfig', '/nonexistent/kubeconfig']);
  expect(r).toEqual({
    code: 2,
    stdout: '',
    stderr: 'isvc-doctor: kubeconfig /nonexistent/kubeconfig does not exist\n',
  });
});
