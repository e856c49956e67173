/**
 * A rollout message follows the traffic on many clusters too (issue 23 item 2): `/isvc rollout` for
 * cluster b typed in cluster a's channel, its Roll back button clicked there (the web process takes
 * the click, b's agent runs it), the proposal approved: b's simulator is patched, a's is not, and the
 * rollout message itself then shows the traffic after the change, without the Roll back button.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { postSignedCommand, signedHeaders } from '../support/slack-signing.js';
import { removeTempDirs } from '../support/temp-dirs.js';
import { startMultiClusterHarness, SIGNING_SECRET, type MultiClusterHarness } from './multi-cluster-harness.js';
import { blockActionsBody, proposalIdOf, proposalMessages, writes, type ClickFields } from './remediation-harness.js';
import { textOf } from './slack-harness.js';

const ALICE = 'U0ALICE';
const APPROVER = 'U0APPROVER';
let h: MultiClusterHarness;

beforeAll(async () => {
  h = await startMultiClusterHarness({
    scenarios: { a: 'storage-uri-not-found', b: 'canary-new-revision-crashing' },
    clusters: { a: { channels: ['C0A'] }, b: { channels: ['C0B'] } },
    file: {
      approvers: [APPROVER],
      agents: { heartbeat: '200ms', staleAfter: '10s' },
      remediation: { verifyTimeout: '1s', verifyPoll: '100ms' },
    },
  });
  await Promise.all([h.startAgent('a'), h.startAgent('b')]);
}, 120_000);
afterAll(async () => {
  await h?.close();
  removeTempDirs();
});

type Element = { action_id?: string };
type Block = { type: string; elements?: Element[] };
const shown = (channel: string, ts: string) => {
  const m = h.slack.store.get(channel, ts);
  return { text: textOf({ text: m?.text, blocks: m?.blocks }), blocks: (m?.blocks ?? []) as Block[] };
};
const buttonsOf = (blocks: Block[]) => blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);

/** A click as Slack sends it: the clicked message whole, blocks included (its cluster's context line). */
async function clickOnMessage(f: ClickFields & { messageTs: string }): Promise<number> {
  const payload = JSON.parse(new URLSearchParams(blockActionsBody(f)).get('payload')!) as {
    message: Record<string, unknown>;
  };
  const m = h.slack.store.get(f.channel, f.messageTs);
  payload.message = { ...payload.message, text: m?.text, blocks: m?.blocks };
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const res = await fetch(h.eventsUrl, { method: 'POST', headers: signedHeaders(SIGNING_SECRET, body), body });
  await res.text();
  return res.status;
}

it("updates cluster b's rollout message after a Roll back clicked in cluster a's channel", async () => {
  const channel = 'C0A';
  const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
    text: 'rollout sklearn-iris -n default --cluster b',
    channel_id: channel,
    user_id: ALICE,
    response_url: h.slack.responseUrl('r1'),
  });
  expect(res.status).toBe(200);
  const viewCall = () =>
    h.slack
      .callsTo('chat.postMessage')
      .find((c) => c.body.channel === channel && buttonsOf((c.body.blocks ?? []) as Block[]).length > 0);
  await h.slack.waitFor(() => viewCall() !== undefined, 30_000);
  const view = String(viewCall()!.response!.ts);
  expect(shown(channel, view).text).toContain('cluster *b*');
  expect(buttonsOf(shown(channel, view).blocks).some((b) => b.action_id === 'rollout.rollback')).toBe(true);

  expect(
    await clickOnMessage({
      actionId: 'rollout.rollback',
      value: 'default/sklearn-iris',
      user: ALICE,
      channel,
      messageTs: view,
    }),
  ).toBe(200);
  await h.slack.waitFor(() => proposalMessages(h.slack, channel).length === 1, 30_000);
  const proposal = proposalMessages(h.slack, channel)[0]!;
  expect(textOf(proposal.body)).toContain('cluster *b*');
  expect(
    await clickOnMessage({
      actionId: 'remediation.approve',
      value: proposalIdOf(proposal),
      user: APPROVER,
      channel,
      messageTs: String(proposal.response!.ts),
    }),
  ).toBe(200);
  await h.slack.waitFor(
    () => writes(h.sims.b!.requests, { verb: 'patch', resource: 'inferenceservices' }).length > 0,
    30_000,
  );
  expect(writes(h.sims.a!.requests, { verb: 'patch', resource: 'inferenceservices' })).toEqual([]);

  // the rollout message shows the traffic after the change, and no Roll back any more
  await h.slack.waitFor(() => shown(channel, view).text.includes('Rolled back by'), 30_000);
  const after = shown(channel, view);
  expect(after.text).toContain(`Rolled back by <@${APPROVER}>`);
  expect(after.text).toMatch(/100% stable \/ 0% canary/);
  expect(after.text).toContain('cluster *b*');
  expect(buttonsOf(after.blocks).some((b) => b.action_id === 'rollout.rollback')).toBe(false);
}, 90_000);
