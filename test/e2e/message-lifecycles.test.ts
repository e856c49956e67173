/**
 * Messages that stay true, end to end (the real bot, fake Slack, real Redis, the simulator with the
 * playground's controller acting on each change): the root message always shows the latest verdict
 * (re-diagnosed in its thread, fixed by an approved change), a decided proposal shows what happened
 * instead of its buttons, the rollout message shows the traffic after a roll back with only the
 * buttons that still apply, and a proposal re-planned after a click names who clicked.
 */
import { postSignedCommand } from '../support/slack-signing.js';
import { until } from '../support/until.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from './slack-harness.js';
import { postSignedClick, proposalIdOf, proposalMessages } from './remediation-harness.js';

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const CAROL = 'U0CAROL';
const file = (namespace: string) => ({
  namespaces: [namespace],
  approvers: [BOB],
  remediation: { verifyTimeout: '15s', verifyPoll: '100ms' },
});

type Element = { action_id?: string; style?: string };
type Block = { type: string; block_id?: string; elements?: Element[] };
const shown = (h: BotHarness, channel: string, ts: string) => {
  const m = h.slack.store.get(channel, ts);
  return { text: textOf({ text: m?.text, blocks: m?.blocks }), blocks: (m?.blocks ?? []) as Block[] };
};
const buttonsOf = (blocks: Block[]) => blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);
const rootOf = (h: BotHarness, channel: string) =>
  String(
    h.slack.callsTo('chat.postMessage').find((c) => c.body.channel === channel && !c.body.thread_ts)!.response!.ts,
  );

async function command(h: BotHarness, text: string, channel: string, user = ALICE) {
  const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
    text,
    channel_id: channel,
    user_id: user,
    response_url: h.slack.responseUrl(channel),
  });
  expect(res.status).toBe(200);
}

const ISVC = ['serving.kubeflow.org/v1alpha2', 'InferenceService', 'ml-team', 'fraud-model'] as const;
/** The predictor's model spec (v1alpha2: spec.default.predictor.sklearn), which holds its resources. */
type Isvc = { spec: { default: { predictor: { sklearn: { resources?: unknown } } } } };
const memoryOf = (isvc: unknown) => (isvc as Isvc).spec.default.predictor.sklearn;
type Conditions = { status?: { conditions?: Array<{ type: string; status: string }> } };

const click = (h: BotHarness, f: Parameters<typeof postSignedClick>[2]) =>
  postSignedClick(h.eventsUrl, SIGNING_SECRET, f);

describe('a diagnosis root message follows the cluster (fraud-model-oom)', () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({ playground: 'fraud-model-oom', file: file('ml-team') });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('diagnose → Re-diagnose in the thread → approve → verified: the root shows each latest verdict', async () => {
    const channel = 'C0LIFE1';
    await command(h, 'diagnose fraud-model -n ml-team', channel);
    await h.slack.waitFor(() => proposalMessages(h.slack, channel).length === 1, 20_000);
    const root = rootOf(h, channel);
    await h.slack.waitFor(() => shown(h, channel, root).text.includes('OOM_KILLED'), 20_000);
    const first = shown(h, channel, root);
    expect(first.text).toContain('❌');
    // the next step names only what is on the screen: no "approve" in a step a CLI also prints
    expect(first.text).not.toMatch(/approve/i);

    // Re-diagnose clicked on the root: the root shows the new verdict and who asked for it
    expect(
      await click(h, {
        actionId: 'diagnosis.rerun',
        value: 'ml-team/fraud-model',
        user: CAROL,
        channel,
        messageTs: root,
      }),
    ).toBe(200);
    await h.slack.waitFor(() => shown(h, channel, root).text.includes(`<@${CAROL}>'s request`), 20_000);
    expect(shown(h, channel, root).text).toContain('OOM_KILLED');
    await h.slack.waitFor(() => proposalMessages(h.slack, channel).length === 2, 20_000);

    // the latest proposal, approved by Bob: its message shows what happened; the root, the fix
    const proposal = proposalMessages(h.slack, channel)[1]!;
    const id = proposalIdOf(proposal);
    expect(await click(h, { actionId: 'remediation.approve', value: id, user: BOB, channel })).toBe(200);
    await h.slack.waitFor(() => shown(h, channel, root).text.includes('Fixed by'), 30_000);
    const fixed = shown(h, channel, root);
    expect(fixed.text).toContain('✅');
    expect(fixed.text).toContain(`Fixed by <@${BOB}>'s *Raise to`);
    expect(fixed.text).toMatch(/verified \d+ s later/);
    expect(fixed.text).not.toContain('OOM_KILLED');
    expect(fixed.text).not.toContain('❌');
    const proposalTs = String(proposal.response!.ts);
    await h.slack.waitFor(() => shown(h, channel, proposalTs).text.includes('applied and verified'), 10_000);
    const decided = shown(h, channel, proposalTs);
    expect(decided.text).toContain(`Approved by <@${BOB}>; applied and verified`);
    expect(buttonsOf(decided.blocks)).toHaveLength(0);
  });

  it('a proposal re-planned after a click names who clicked, and who asked first', async () => {
    // break it again: a limit below what the model needs
    const live = h.sim.store.get(...ISVC)!;
    memoryOf(live).resources = { limits: { memory: '128Mi' }, requests: { memory: '128Mi' } };
    h.sim.store.upsert(live);
    // the controller's stand-in rolls it out and it gets OOMKilled
    const ready = () =>
      ((h.sim.store.get(...ISVC) as Conditions).status?.conditions ?? []).find((c) => c.type === 'Ready')?.status;
    await until(async () => ready() === 'False', 'the InferenceService to fail again');
    await command(h, 'diagnose fraud-model -n ml-team', 'C0LIFE3');
    await h.slack.waitFor(() => proposalMessages(h.slack, 'C0LIFE3').length === 1, 20_000);
    const first = proposalMessages(h.slack, 'C0LIFE3')[0]!;
    // someone edits it after the plan; Bob's click finds the change
    const edited = h.sim.store.get(...ISVC)!;
    memoryOf(edited).resources = {
      limits: { memory: '200Mi' },
      requests: { memory: '128Mi' },
    };
    h.sim.store.upsert(edited);
    await click(h, { actionId: 'remediation.approve', value: proposalIdOf(first), user: BOB, channel: 'C0LIFE3' });
    await h.slack.waitFor(() => proposalMessages(h.slack, 'C0LIFE3').length === 2, 20_000);
    const next = textOf(proposalMessages(h.slack, 'C0LIFE3')[1]!.body);
    expect(next).toContain(`Re-planned after <@${BOB}>'s click`);
    expect(next).toContain(`first requested by <@${ALICE}>`);
  });
});

describe('the rollout message follows the traffic (ranker-canary-crashing)', () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({ playground: 'ranker-canary-crashing', file: file('recsys') });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a crashing canary: Roll back is the primary action; after it, the message shows the traffic and no Roll back', async () => {
    const channel = 'C0LIFE4';
    await command(h, 'rollout ranker -n recsys', channel);
    await h.slack.waitFor(() => h.slack.callsTo('chat.postMessage').some((c) => c.body.channel === channel), 20_000);
    const view = rootOf(h, channel);
    const before = buttonsOf(shown(h, channel, view).blocks);
    const style = (id: string, blocks = before) => blocks.find((b) => b.action_id === id)?.style;
    expect(style('rollout.rollback')).toBe('primary');
    expect(style('rollout.promote')).toBeUndefined();
    expect(before.some((b) => b.action_id === 'rollout.promote')).toBe(true);

    // Promote asked anyway: the proposal and its confirm dialog say the canary is failing, before the change
    expect(
      await click(h, { actionId: 'rollout.promote', value: 'recsys/ranker', user: ALICE, channel, messageTs: view }),
    ).toBe(200);
    await h.slack.waitFor(() => proposalMessages(h.slack, channel).length === 1, 20_000);
    const promote = proposalMessages(h.slack, channel)[0]!;
    const said = textOf(promote.body);
    expect(said).toMatch(
      /Before the change:\* canary ranker-predictor-00002: 0 of 1 pod ready, CrashLoopBackOff, \d+ restarts?/,
    );
    const approve = buttonsOf(promote.body.blocks as Block[]).find((b) => b.action_id === 'remediation.approve') as
      | (Element & { confirm?: { text: { text: string } } })
      | undefined;
    expect(approve?.style).toBeUndefined();
    expect(approve?.confirm?.text.text).toMatch(
      /^⚠️ Now: canary ranker-predictor-00002: 0 of 1 pod ready, CrashLoopBackOff/,
    );

    expect(
      await click(h, { actionId: 'rollout.rollback', value: 'recsys/ranker', user: ALICE, channel, messageTs: view }),
    ).toBe(200);
    await h.slack.waitFor(() => proposalMessages(h.slack, channel).length === 2, 20_000);
    const id = proposalIdOf(proposalMessages(h.slack, channel)[1]!);
    expect(await click(h, { actionId: 'remediation.approve', value: id, user: BOB, channel })).toBe(200);
    await h.slack.waitFor(() => shown(h, channel, view).text.includes('Rolled back by'), 30_000);
    const after = shown(h, channel, view);
    expect(after.text).toContain(`Rolled back by <@${BOB}>`);
    expect(after.text).toContain('canaryTrafficPercent 0: 100% stable / 0% canary');
    expect(after.text).not.toContain('rolling back is the safe action');
    expect(buttonsOf(after.blocks).some((b) => b.action_id === 'rollout.rollback')).toBe(false);
  });
});

describe('an incident thread carries the fix, as /isvc diagnose does (fraud-model-oom)', () => {
  const ALERTS = 'C0LIFEALERTS';
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({
      playground: 'fraud-model-oom',
      file: {
        ...file('ml-team'),
        alerts: { channel: ALERTS, unreadyAfter: '300ms' },
        leaderElection: { leaseName: 'watcher-lifecycles', leaseDuration: '1s' },
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('incident → the proposal in its thread → approved → the incident recovers', async () => {
    await h.slack.waitFor(() => proposalMessages(h.slack, ALERTS).length === 1, 30_000);
    const root = rootOf(h, ALERTS);
    const proposal = proposalMessages(h.slack, ALERTS)[0]!;
    expect(proposal.body.thread_ts).toBe(root);
    const offered = textOf(proposal.body);
    expect(offered).toContain('Offered with the incident');
    expect(offered).not.toContain('<@isvc-doctor>');
    // every reply of the thread names only buttons that are there
    const thread = h.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.body.channel === ALERTS && c.body.thread_ts === root);
    for (const c of thread) expect(String(c.body.text)).not.toMatch(/approve the proposed/);
    expect(
      await click(h, { actionId: 'remediation.approve', value: proposalIdOf(proposal), user: BOB, channel: ALERTS }),
    ).toBe(200);
    await h.slack.waitFor(() => /recovered/i.test(shown(h, ALERTS, root).text), 30_000);
    expect(shown(h, ALERTS, root).text).toContain('fraud-model');
  });

  it("Mute 1h clicked on the incident's root message answers beside it, not in its collapsed thread", async () => {
    const root = rootOf(h, ALERTS);
    const mutedFor = (c: { body: Record<string, unknown> }) =>
      c.body.channel === ALERTS && c.body.user === CAROL && /mute/i.test(String(c.body.text));
    expect(
      await click(h, {
        actionId: 'incident.mute',
        value: 'ml-team/fraud-model',
        user: CAROL,
        channel: ALERTS,
        messageTs: root,
      }),
    ).toBe(200);
    await h.slack.waitFor(() => h.slack.callsTo('chat.postEphemeral').some(mutedFor), 10_000);
    const told = h.slack.callsTo('chat.postEphemeral').find(mutedFor)!;
    expect(told.body.thread_ts).toBeUndefined();
  });
});
