/**
 * Remediation policy end to end (fake Slack, real Redis, simulator on oom-exit-code-137): expiry,
 * per-namespace approvers given as a Slack user group, the two-person rule, an approval made while
 * no worker runs (applied once when one starts), and a verification that reports the fix.
 */
import path from 'node:path';
import { ProposalStore } from '../../src/remediation/proposal-store.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { postSignedCommand } from '../support/slack-signing.js';
import { testClock } from '../support/test-clock.js';
import { postSignedClick, proposalIdOf, proposalMessages, sleep, writes } from './remediation-harness.js';
import { SIGNING_SECRET, startBotHarness, type BotHarness } from './slack-harness.js';

const ISVC = ['serving.kubeflow.org/v1alpha2', 'InferenceService', 'default', 'sklearn-iris'] as const;

async function proposalIn(h: BotHarness, channel: string, user: string): Promise<{ id: string; ts: string }> {
  await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
    text: 'diagnose sklearn-iris -n default',
    channel_id: channel,
    user_id: user,
  });
  await h.slack.waitFor(() => proposalMessages(h.slack, channel).length > 0, 20_000);
  const call = proposalMessages(h.slack, channel)[0]!;
  return { id: proposalIdOf(call), ts: String(call.response!.ts) };
}
const approve = (h: BotHarness, id: string, user: string, channel: string) =>
  postSignedClick(h.eventsUrl, SIGNING_SECRET, { actionId: 'remediation.approve', value: id, user, channel });
const ephemeral = (h: BotHarness, user: string, code: string) =>
  h.slack.callsTo('chat.postEphemeral').some((c) => c.body.user === user && String(c.body.text).includes(code));
const patches = (h: BotHarness) => writes(h.sim.requests, { verb: 'patch', resource: 'inferenceservices' });

describe('remediation policy', () => {
  let h: BotHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('refuses an expired proposal and writes nothing', async () => {
    const clock = testClock();
    h = await startBotHarness({
      scenario: 'oom-exit-code-137',
      file: { approvers: ['U0APPROVER'], remediation: { proposalTtl: '1s' } },
      now: clock.now,
    });
    const p = await proposalIn(h, 'C0EXP', 'U0ALICE');
    clock.advance(1200);
    await approve(h, p.id, 'U0APPROVER', 'C0EXP');
    await h.slack.waitFor(() => ephemeral(h!, 'U0APPROVER', 'PROPOSAL_EXPIRED'));
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) => c.method === 'chat.update' && c.body.ts === p.ts && JSON.stringify(c.body.blocks).includes('Expired'),
      ),
    );
    expect(writes(h.sim.requests, { events: true })).toHaveLength(0);
  });

  it("a click that comes before the offer's ts was stored updates the clicked message, through apply and verification", async () => {
    h = await startBotHarness({
      scenario: 'oom-exit-code-137',
      file: { approvers: ['U0APPROVER'], remediation: { verifyTimeout: '1s', verifyPoll: '100ms' } },
    });
    const p = await proposalIn(h, 'C0EARLY', 'U0ALICE');
    // the record as it is between Slack's answer to the offer and the bot storing its ts
    const store = new ProposalStore(h.bot.queue.connection, `${h.prefix}:${h.config.queue.name}`);
    while ((await store.get(p.id))?.messageTs !== p.ts) await sleep(20);
    await store.setFields(p.id, { messageTs: '' });
    await postSignedClick(h.eventsUrl, SIGNING_SECRET, {
      actionId: 'remediation.approve',
      value: p.id,
      user: 'U0APPROVER',
      channel: 'C0EARLY',
      messageTs: p.ts,
    });
    await h.slack.waitFor(() => patches(h!).length === 1, 20_000);
    const updatesOf = (word: string) =>
      h!.slack.callsTo('chat.update').filter((c) => JSON.stringify(c.body.blocks).includes(word));
    await h.slack.waitFor(() => updatesOf('applying').length > 0 && updatesOf('; applied').length > 0, 20_000);
    for (const c of updatesOf('Approved by <@U0APPROVER>')) expect(c.body.ts).toBe(p.ts);
  });

  it('per-namespace approvers as a user group, and the two-person rule', async () => {
    h = await startBotHarness({
      scenario: 'oom-exit-code-137',
      file: {
        approvers: ['U0GLOBAL'],
        remediation: {
          approvers: { default: ['S0OPS'] },
          twoPersonRule: true,
          verifyTimeout: '1s',
          verifyPoll: '100ms',
        },
      },
    });
    h.slack.setUserGroup('S0OPS', ['U0BOB', 'U0CAROL']);
    const p = await proposalIn(h, 'C0TWO', 'U0BOB');
    await approve(h, p.id, 'U0GLOBAL', 'C0TWO'); // approver elsewhere, not for namespace default
    await h.slack.waitFor(() => ephemeral(h!, 'U0GLOBAL', 'NOT_APPROVER'));
    await approve(h, p.id, 'U0BOB', 'C0TWO'); // in the group, but asked for the diagnosis
    await h.slack.waitFor(() => ephemeral(h!, 'U0BOB', 'OWN_PROPOSAL'));
    await sleep(200);
    expect(patches(h)).toHaveLength(0);
    expect(h.slack.callsTo('usergroups.users.list').length).toBeGreaterThanOrEqual(1);
    await approve(h, p.id, 'U0CAROL', 'C0TWO');
    await h.slack.waitFor(() => patches(h!).length === 1, 20_000);
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.update' &&
          c.body.ts === p.ts &&
          JSON.stringify(c.body.blocks).includes('Approved by <@U0CAROL>'),
      ),
    );
  });

  it('an approval made while no worker runs is applied once when a worker starts', async () => {
    h = await startBotHarness({
      scenario: 'oom-exit-code-137',
      file: { approvers: ['U0APPROVER'], remediation: { verifyTimeout: '1s', verifyPoll: '100ms' } },
    });
    const p = await proposalIn(h, 'C0CRASH', 'U0ALICE');
    await h.bot.worker!.close();
    await approve(h, p.id, 'U0APPROVER', 'C0CRASH');
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.update' && c.body.ts === p.ts && JSON.stringify(c.body.blocks).includes('Approved by'),
      ),
    );
    // a second click while it waits only re-adds the same job (jobId = proposal id)
    await approve(h, p.id, 'U0APPROVER', 'C0CRASH');
    await h.slack.waitFor(() => ephemeral(h!, 'U0APPROVER', 'PROPOSAL_ALREADY_APPROVED'));
    await sleep(300);
    expect(patches(h)).toHaveLength(0);
    expect(await h.bot.queue.queue.getJobState(p.id)).toBe('waiting');
    await h.startAnother('worker');
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.body.channel === 'C0CRASH' &&
            /Not fixed yet|Verified|new root cause/.test(String(c.body.text)),
        ),
      20_000,
    );
    expect(patches(h)).toHaveLength(1);
  });

  it('verification reports the fix once the controller has rolled out a healthy revision', async () => {
    h = await startBotHarness({
      scenario: 'oom-exit-code-137',
      file: { approvers: ['U0APPROVER'], remediation: { verifyTimeout: '15s', verifyPoll: '100ms' } },
    });
    const p = await proposalIn(h, 'C0FIX', 'U0ALICE');
    await approve(h, p.id, 'U0APPROVER', 'C0FIX');
    await h.slack.waitFor(() => patches(h!).length === 1, 20_000);
    // play the controllers: the OOM objects give way to a healthy rollout that has observed the new generation
    const oom = await loadSnapshot(path.resolve('test/scenarios/oom-exit-code-137'));
    const healthy = await loadSnapshot(path.resolve('test/scenarios/healthy-kfserving-v1alpha2'));
    for (const o of oom.objects as any[])
      if (o.kind !== 'InferenceService')
        h.sim.store.delete(o.apiVersion, o.kind, o.metadata.namespace, o.metadata.name);
    for (const o of healthy.objects as any[]) h.sim.store.upsert(o);
    const isvc = h.sim.store.get(...ISVC)!;
    (isvc.status as any).observedGeneration = isvc.metadata.generation;
    h.sim.store.upsert(isvc);
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.body.channel === 'C0FIX' &&
            String(c.body.text).startsWith('✅ Verified'),
        ),
      20_000,
    );
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.update' &&
          c.body.ts === p.ts &&
          JSON.stringify(c.body.blocks).includes('applied and verified'),
      ),
    );
  });
});
