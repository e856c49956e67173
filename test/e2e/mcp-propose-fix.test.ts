/**
 * An agent asks for a fix over MCP and people apply it (fake Slack, real Redis, the simulator serving
 * oom-exit-code-137, `serve` with MCP_PORT): propose_fix posts a root message and the proposal in
 * its thread in the configured channel and returns the proposal's id and permalink; the MCP call
 * itself writes nothing (no PATCH, not even a dry run, in the simulator's request log); an approver's
 * click dry-runs and applies it, exactly one PATCH.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { until } from '../support/until.js';
import { postSignedClick, proposalIdOf, proposalMessages, writes } from './remediation-harness.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from './slack-harness.js';

const APPROVER = 'U0APPROVER';
const CHANNEL = 'C0MCPFIX';
const TOKEN = 'ci-agent-token-0123456789abcdef';
const ISVC = ['serving.kubeflow.org/v1alpha2', 'InferenceService', 'default', 'sklearn-iris'] as const;

let h: BotHarness;
let client: Client;
beforeAll(async () => {
  h = await startBotHarness({
    scenario: 'oom-exit-code-137',
    file: {
      approvers: [APPROVER],
      mcp: { channel: CHANNEL },
      remediation: { verifyTimeout: '1s', verifyPoll: '100ms' },
    },
    env: { MCP_PORT: '0', MCP_TOKENS: `ci-agent=${TOKEN}` },
  });
  client = new Client({ name: 'isvc-doctor-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(h.bot.mcpUrl!), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await h?.close();
});

type Spec = { default: { predictor: { sklearn: { resources: { limits: { memory: string } } } } } };
const memoryOf = () => (h.sim.store.get(...ISVC)!.spec as Spec).default.predictor.sklearn.resources;

interface FixAnswer {
  proposalId: string;
  permalink: string;
  plan: { diff: string[]; checkedBy: string };
  kubectl: string;
}

it('proposes in Slack without writing; an approver applies it', async () => {
  const before = h.sim.requests.length;
  const r = (await client.callTool({
    name: 'propose_fix',
    arguments: { name: 'sklearn-iris', namespace: 'default', action: 'raise-memory-limit' },
  })) as CallToolResult;
  expect(r.isError).toBeFalsy();
  const out = r.structuredContent as unknown as FixAnswer;
  expect(out).toEqual(
    expect.objectContaining({
      proposed: true,
      applied: false,
      channel: CHANNEL,
      findingCode: 'OOM_KILLED',
      proposalId: expect.stringMatching(/^rp-[A-Za-z0-9_-]{16}$/),
      permalink: expect.stringMatching(new RegExp(`/archives/${CHANNEL}/p\\d+$`)),
    }),
  );
  expect(out.plan.diff.join('\n')).toMatch(/- {3}256Mi[\s\S]*\+ {3}512Mi/);
  expect(out.plan.checkedBy).toBe('reads');
  expect(out.kubectl).toMatch(
    /^kubectl patch inferenceservice\.serving\.kubeflow\.org sklearn-iris -n default --type merge -p '/,
  );
  // the MCP call wrote nothing: no PATCH, no dry run, nothing created
  const during = h.sim.requests.slice(before);
  expect(during.filter((q) => ['patch', 'update', 'create', 'delete'].includes(q.verb))).toEqual([]);
  expect(memoryOf().limits.memory).toBe('256Mi');

  // the root message names the agent; the proposal is in its thread, its buttons carry the id returned
  const root = h.slack.callsTo('chat.postMessage').find((c) => c.body.channel === CHANNEL && !c.body.thread_ts)!;
  expect(textOf(root.body)).toContain('an assistant over MCP (ci-agent)');
  const proposal = proposalMessages(h.slack, CHANNEL)[0]!;
  expect(proposal.body.thread_ts).toBe(root.response!.ts);
  expect(proposalIdOf(proposal)).toBe(out.proposalId);
  expect(out.permalink).toContain(`/p${String(proposal.response!.ts).replace('.', '')}`);
  expect(textOf(proposal.body)).toContain('Requested by an assistant over MCP (ci-agent)');

  // an approver's click applies it: one PATCH of the InferenceService
  const fromClick = h.sim.requests.length;
  const status = await postSignedClick(h.eventsUrl, SIGNING_SECRET, {
    actionId: 'remediation.approve',
    value: out.proposalId,
    user: APPROVER,
    channel: CHANNEL,
  });
  expect(status).toBe(200);
  await until(async () => memoryOf().limits.memory === '512Mi', 'the approved patch to be applied', 20_000);
  expect(writes(h.sim.requests.slice(fromClick), { verb: 'patch', resource: 'inferenceservices' })).toHaveLength(1);
});
