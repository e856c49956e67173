/**
 * Remediation end to end over HTTP (fake Slack, real Redis, the simulator serving
 * oom-exit-code-137): a diagnosis yields a raise-memory-limit proposal planned from what it read
 * (no request of its own); a non-approver's click changes nothing; an approver's click dry-runs the
 * patch, then makes exactly one PATCH (also for ten concurrent clicks); a dry run the API server
 * refuses writes nothing; a stale proposal is re-planned, not applied; a rejected one stays unapplied; the audit record,
 * the Event and the thread messages exist; verification reports the outcome.
 */
import { AuditLog } from '../../src/remediation/audit-log.js';
import { ProposalStore } from '../../src/remediation/proposal-store.js';
import { postSignedCommand } from '../support/slack-signing.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from './slack-harness.js';
import { postSignedClick, proposalIdOf, proposalMessages, writes } from './remediation-harness.js';

const APPROVER = 'U0APPROVER';
const ISVC = ['serving.kubeflow.org/v1alpha2', 'InferenceService', 'default', 'sklearn-iris'] as const;

let h: BotHarness;
let store: ProposalStore;
let audit: AuditLog;
beforeAll(async () => {
  h = await startBotHarness({
    scenario: 'oom-exit-code-137',
    file: { approvers: [APPROVER], remediation: { verifyTimeout: '1s', verifyPoll: '100ms' } },
  });
  const keyPrefix = `${h.prefix}:${h.config.queue.name}`;
  store = new ProposalStore(h.bot.queue.connection, keyPrefix);
  audit = new AuditLog(h.bot.queue.connection, keyPrefix);
});
afterAll(async () => {
  await h?.close();
});

const click = (actionId: 'remediation.approve' | 'remediation.reject', value: string, user: string, channel: string) =>
  postSignedClick(h.eventsUrl, SIGNING_SECRET, { actionId, value, user, channel });
const ephemeralsTo = (user: string) => h.slack.callsTo('chat.postEphemeral').filter((c) => c.body.user === user);
const memoryOf = () => (h.sim.store.get(...ISVC)!.spec as any).default.predictor.sklearn.resources;
const isvcPatches = (from = 0) => writes(h.sim.requests.slice(from), { verb: 'patch', resource: 'inferenceservices' });

async function proposalIn(
  channel: string,
  user = 'U0ALICE',
): Promise<{ id: string; ts: string; body: Record<string, any> }> {
  const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
    text: 'diagnose sklearn-iris -n default',
    channel_id: channel,
    user_id: user,
  });
  expect(res.status).toBe(200);
  await h.slack.waitFor(() => proposalMessages(h.slack, channel).length > 0, 20_000);
  const call = proposalMessages(h.slack, channel)[0]!;
  return { id: proposalIdOf(call), ts: String(call.response!.ts), body: call.body };
}

describe('raise-memory-limit from the thread', () => {
  let id: string;

  it('an OOM diagnosis yields a proposal: the diff, the object, the risk, buttons carrying only an opaque id', async () => {
    const before = h.sim.requests.length;
    const p = await proposalIn('C0OOM1');
    id = p.id;
    const text = textOf(p.body);
    expect(text).toContain('raise-memory-limit');
    expect(text).toContain('OOM_KILLED');
    expect(text).toContain('spec.default.predictor.sklearn.resources.limits.memory');
    expect(text).toMatch(/- {3}256Mi[\s\S]*\+ {3}512Mi/);
    expect(text).toContain('InferenceService default/sklearn-iris');
    expect(text).toMatch(/Risk low/);
    expect(id).toMatch(/^rp-[A-Za-z0-9_-]{16}$/);
    const buttons = (p.body.blocks as any[]).find((b) => b.type === 'actions').elements;
    expect(buttons.map((b: any) => b.action_id)).toEqual(['remediation.approve', 'remediation.reject']);
    for (const b of buttons) expect(b.value).toBe(id);
    const root = h.slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0OOM1' && !c.body.thread_ts)!;
    expect(p.body.thread_ts).toBe(root.response!.ts);
    // planned from what the diagnosis read: no dry run yet (it comes with the approval), nothing written, and the proposal says so
    expect(h.sim.requests.slice(before).filter((r) => r.query.dryRun !== undefined)).toHaveLength(0);
    expect(isvcPatches(before)).toHaveLength(0);
    expect(text).toContain('computed from the objects just read; the API server dry-runs it when approved');
    expect(text).not.toContain('dry run accepted');
    expect((await store.get(id))!.state).toBe('pending');
  });

  it("a non-approver's click gets an ephemeral refusal and changes nothing", async () => {
    const before = h.sim.requests.length;
    expect(await click('remediation.approve', id, 'U0MALLORY', 'C0OOM1')).toBe(200);
    await h.slack.waitFor(() => ephemeralsTo('U0MALLORY').length > 0);
    expect(ephemeralsTo('U0MALLORY')[0]!.body.text).toContain('NOT_APPROVER');
    await new Promise((r) => setTimeout(r, 300));
    expect(writes(h.sim.requests.slice(before), { events: true })).toHaveLength(0);
    expect(memoryOf().limits.memory).toBe('256Mi');
    expect((await store.get(id))!.state).toBe('pending');
    expect((await audit.list(id)).map((e) => e.event)).toEqual(['proposed', 'refused']);
  });

  it("an approver's click makes exactly one PATCH, audits it, records an Event, updates the proposal, and verifies", async () => {
    const before = h.sim.requests.length;
    expect(await click('remediation.approve', id, APPROVER, 'C0OOM1')).toBe(200);
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.body.channel === 'C0OOM1' &&
            /Not fixed yet|Verified|new root cause/.test(String(c.body.text)),
        ),
      20_000,
    );
    const patches = isvcPatches(before);
    expect(patches).toHaveLength(1);
    // the API server's dry run of the planned patch, once, answered before the one real patch went out
    const dryRuns = h.sim.requests.slice(before).filter((r) => r.verb === 'patch' && r.query.dryRun === 'All');
    expect(dryRuns).toHaveLength(1);
    expect(dryRuns[0]!.doneAt!).toBeLessThanOrEqual(patches[0]!.at);
    expect(memoryOf()).toMatchObject({ limits: { memory: '512Mi' }, requests: { memory: '512Mi' } });
    expect(h.sim.store.get(...ISVC)!.metadata.annotations?.['isvc-doctor.io/remediation']).toBe(id);

    const events = h.sim.store.list('v1', 'Event', 'default').filter((e: any) => e.reason === 'RemediationApplied');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      involvedObject: { kind: 'InferenceService', name: 'sklearn-iris' },
      type: 'Normal',
    });
    expect((events[0] as any).message).toContain(APPROVER);

    const log = await audit.list(id);
    expect(log.map((e) => e.event)).toEqual(['proposed', 'refused', 'approved', 'applied', 'verified']);
    const applied = log.find((e) => e.event === 'applied')!;
    expect(applied.actor).toBe(APPROVER);
    expect(applied.patch).toContain('512Mi');
    expect(Date.parse(applied.at)).toBeGreaterThan(0);

    const thread = h.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.body.channel === 'C0OOM1' && c.body.thread_ts)
      .map((c) => String(c.body.text));
    expect(thread.some((t) => t.startsWith('Applied raise-memory-limit') && t.includes(`<@${APPROVER}>`))).toBe(true);
    // nothing else changed in the simulated cluster, so the OOM is still the root cause
    expect(thread.some((t) => t.includes('Not fixed yet') && t.includes('OOM_KILLED'))).toBe(true);
    const updates = h.slack
      .callsTo('chat.update')
      .filter(
        (c) => c.body.channel === 'C0OOM1' && JSON.stringify(c.body.blocks).includes(`Approved by <@${APPROVER}>`),
      );
    expect(updates.length).toBeGreaterThanOrEqual(1);
    for (const u of updates) expect(JSON.stringify(u.body.blocks)).not.toContain('remediation.approve');
    expect((await store.get(id))!.state).toBe('verified');
  });

  it('a second click on a used proposal is refused and writes nothing', async () => {
    const before = h.sim.requests.length;
    await click('remediation.approve', id, APPROVER, 'C0OOM1');
    await h.slack.waitFor(() => ephemeralsTo(APPROVER).some((c) => String(c.body.text).includes('PROPOSAL_USED')));
    expect(writes(h.sim.requests.slice(before), { events: true })).toHaveLength(0);
  });

  it('ten concurrent clicks make one PATCH', async () => {
    const p = await proposalIn('C0OOM2');
    const before = h.sim.requests.length;
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => click('remediation.approve', p.id, APPROVER, 'C0OOM2')),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.body.channel === 'C0OOM2' &&
            /Not fixed yet|Verified|new root cause/.test(String(c.body.text)),
        ),
      20_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(isvcPatches(before)).toHaveLength(1);
    expect(memoryOf().limits.memory).toBe('1Gi');
    expect((await audit.list(p.id)).filter((e) => e.event === 'applied')).toHaveLength(1);
    expect(
      h.sim.store.list('v1', 'Event', 'default').filter((e: any) => e.reason === 'RemediationApplied'),
    ).toHaveLength(2);
  });

  it('an object changed since the plan is re-planned and asked again, not patched', async () => {
    const p = await proposalIn('C0OOM3');
    // someone edits the InferenceService after the plan
    const live = h.sim.store.get(...ISVC)!;
    (live.spec as any).default.predictor.sklearn.resources = { limits: { memory: '3Gi' }, requests: { memory: '1Gi' } };
    h.sim.store.upsert(live);
    const before = h.sim.requests.length;
    await click('remediation.approve', p.id, APPROVER, 'C0OOM3');
    const oldMarked = () =>
      h.slack
        .callsTo('chat.update')
        .some((u) => u.body.ts === p.ts && String(JSON.stringify(u.body.blocks)).includes('changed since this plan'));
    await h.slack.waitFor(
      () =>
        proposalMessages(h.slack, 'C0OOM3').length === 2 &&
        ephemeralsTo(APPROVER).some((c) => String(c.body.text).includes('PROPOSAL_STALE')) &&
        oldMarked(),
      20_000,
    );
    expect(isvcPatches(before)).toHaveLength(0);
    expect(memoryOf().limits.memory).toBe('3Gi');
    expect((await store.get(p.id))!.state).toBe('superseded');
    const next = proposalMessages(h.slack, 'C0OOM3')[1]!;
    expect(textOf(next.body)).toMatch(/- {3}3Gi[\s\S]*\+ {3}6Gi/);
    expect(oldMarked()).toBe(true);
    // the new proposal applies
    await click('remediation.approve', proposalIdOf(next), APPROVER, 'C0OOM3');
    await h.slack.waitFor(() => isvcPatches(before).length === 1, 20_000);
    expect(memoryOf()).toMatchObject({ limits: { memory: '6Gi' }, requests: { memory: '1Gi' } });
  });

  it('a dry run the API server refuses on approval writes nothing and says why in the thread', async () => {
    const p = await proposalIn('C0OOM5');
    const before = h.sim.requests.length;
    const limit = memoryOf().limits.memory;
    // the remediation role lost its patch permission after the proposal was shown
    h.snapshot.deny.push({ verb: 'patch', resource: 'inferenceservices' });
    try {
      await click('remediation.approve', p.id, APPROVER, 'C0OOM5');
      await h.slack.waitFor(
        (calls) =>
          calls.some(
            (c) =>
              c.method === 'chat.postMessage' &&
              c.body.channel === 'C0OOM5' &&
              String(c.body.text).includes('in its dry run'),
          ),
        20_000,
      );
    } finally {
      h.snapshot.deny.pop();
    }
    const refusal = h.slack
      .callsTo('chat.postMessage')
      .find((c) => c.body.channel === 'C0OOM5' && String(c.body.text).includes('in its dry run'))!;
    expect(refusal.body.thread_ts).toBe(p.body.thread_ts);
    expect(String(refusal.body.text)).toContain('REMEDIATION_NOT_APPLICABLE');
    expect(String(refusal.body.text)).toContain('nothing was changed');
    expect(
      h.sim.requests.slice(before).filter((r) => r.verb === 'patch' && r.query.dryRun === 'All' && r.status === 403),
    ).toHaveLength(1);
    expect(writes(h.sim.requests.slice(before), { events: true })).toHaveLength(0);
    expect(memoryOf().limits.memory).toBe(limit);
    expect((await store.get(p.id))!.state).toBe('failed');
    expect((await audit.list(p.id)).map((e) => e.event)).toEqual(['proposed', 'approved', 'failed']);
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.update' &&
          c.body.ts === p.ts &&
          JSON.stringify(c.body.blocks).includes('refused the change in a dry run'),
      ),
    );
  });

  it('a rejected proposal is never applied', async () => {
    const p = await proposalIn('C0OOM4');
    const before = h.sim.requests.length;
    await click('remediation.reject', p.id, APPROVER, 'C0OOM4');
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.update' && c.body.ts === p.ts && JSON.stringify(c.body.blocks).includes('Rejected by'),
      ),
    );
    await click('remediation.approve', p.id, APPROVER, 'C0OOM4');
    await h.slack.waitFor(() =>
      ephemeralsTo(APPROVER).some((c) => c.body.channel === 'C0OOM4' && String(c.body.text).includes('PROPOSAL_USED')),
    );
    expect(writes(h.sim.requests.slice(before), { events: true })).toHaveLength(0);
    expect((await audit.list(p.id)).map((e) => e.event)).toEqual(['proposed', 'rejected']);
  });
});
