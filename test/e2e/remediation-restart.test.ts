/**
 * restart-pods end to end over HTTP (fake Slack, real Redis, the simulator serving
 * crashloop-import-error): the CRASH_LOOP diagnosis yields a proposal naming exactly the pod it will
 * delete, with a confirm dialog and the "only after the cause is fixed" risk; a non-approver's click
 * deletes nothing; a pod replaced since the plan is re-planned, not deleted; ten concurrent approver
 * clicks make one DELETE (uid precondition); the audit record, the Event on the InferenceService, the
 * thread messages and the verification exist.
 */
import { AuditLog } from '../../src/remediation/audit-log.js';
import { ProposalStore } from '../../src/remediation/proposal-store.js';
import { postSignedCommand } from '../support/slack-signing.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from './slack-harness.js';
import { postSignedClick, proposalIdOf, proposalMessages, sleep, writes } from './remediation-harness.js';

const APPROVER = 'U0APPROVER';
const NS = 'growth-ml';
const POD = 'churn-predictor-predictor-00001-deployment-7jhrjh8c75-khfww';
const UID = 'a3b442b5-830a-50eb-8949-0df48479b772';

let h: BotHarness;
let store: ProposalStore;
let audit: AuditLog;
beforeAll(async () => {
  h = await startBotHarness({
    scenario: 'crashloop-import-error',
    file: { namespaces: [NS], approvers: [APPROVER], remediation: { verifyTimeout: '1s', verifyPoll: '100ms' } },
  });
  const keyPrefix = `${h.prefix}:${h.config.queue.name}`;
  store = new ProposalStore(h.bot.queue.connection, keyPrefix);
  audit = new AuditLog(h.bot.queue.connection, keyPrefix);
});
afterAll(async () => {
  await h?.close();
});

const CHANNEL = 'C0RESTART';
const click = (value: string, user: string) =>
  postSignedClick(h.eventsUrl, SIGNING_SECRET, { actionId: 'remediation.approve', value, user, channel: CHANNEL });
const ephemeralsTo = (user: string) => h.slack.callsTo('chat.postEphemeral').filter((c) => c.body.user === user);
const podDeletes = (from = 0) => writes(h.sim.requests.slice(from), { verb: 'delete', resource: 'pods' });
const pod = () => h.sim.store.get('v1', 'Pod', NS, POD);

describe('restart-pods from the thread', () => {
  let id: string;

  it('a CRASH_LOOP diagnosis yields a proposal naming the pod to delete, with a confirm dialog; nothing is deleted', async () => {
    const before = h.sim.requests.length;
    const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: `diagnose churn-predictor -n ${NS}`,
      channel_id: CHANNEL,
      user_id: 'U0ALICE',
    });
    expect(res.status).toBe(200);
    await h.slack.waitFor(() => proposalMessages(h.slack, CHANNEL).length > 0, 20_000);
    const call = proposalMessages(h.slack, CHANNEL)[0]!;
    id = proposalIdOf(call);
    const text = textOf(call.body);
    expect(text).toContain('restart-pods');
    expect(text).toContain('CRASH_LOOP');
    expect(text).toContain(`pod ${POD}:`);
    expect(text).toMatch(/\+ {3}deleted \(its ReplicaSet creates a new pod\)/);
    expect(text).toContain(`Pod ${NS}/${POD}`);
    expect(text).toMatch(/Risk medium/);
    expect(text).toContain('only helps after the cause is fixed');
    const approve = (call.body.blocks as any[]).find((b) => b.type === 'actions').elements[0];
    expect(approve.confirm.text.text).toContain('only helps after the cause is fixed');
    // the proposal sits right under the first reply (the deciding evidence of CRASH_LOOP), in the same thread
    const thread = h.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.body.channel === CHANNEL && c.body.thread_ts === call.body.thread_ts);
    const at = thread.indexOf(call);
    expect(at).toBeGreaterThan(0);
    expect(textOf(thread[at - 1]!.body)).toMatch(/Root cause .*CRASH_LOOP/);
    // planned from the pods the diagnosis read: no dry run yet (it comes with the approval), nothing deleted
    expect(h.sim.requests.slice(before).filter((r) => r.query.dryRun !== undefined)).toHaveLength(0);
    expect(podDeletes(before)).toHaveLength(0);
    expect((await store.get(id))!.state).toBe('pending');
  });

  it("a non-approver's click deletes nothing", async () => {
    const before = h.sim.requests.length;
    await click(id, 'U0MALLORY');
    await h.slack.waitFor(() => ephemeralsTo('U0MALLORY').length > 0);
    expect(ephemeralsTo('U0MALLORY')[0]!.body.text).toContain('NOT_APPROVER');
    await sleep(300);
    expect(writes(h.sim.requests.slice(before), { events: true })).toHaveLength(0);
    expect(pod()?.metadata.uid).toBe(UID);
  });

  it('a pod replaced since the plan is re-planned and asked again, not deleted', async () => {
    // the kubelet's ReplicaSet replaced it under the same name (another uid), e.g. someone deleted it by hand
    const live = pod()!;
    h.sim.store.delete('v1', 'Pod', NS, POD);
    h.sim.store.upsert({
      ...live,
      metadata: { ...live.metadata, uid: 'b0000000-0000-4000-8000-000000000001', resourceVersion: undefined },
    } as any);
    const before = h.sim.requests.length;
    await click(id, APPROVER);
    await h.slack.waitFor(
      () =>
        proposalMessages(h.slack, CHANNEL).length === 2 &&
        ephemeralsTo(APPROVER).some((c) => String(c.body.text).includes('PROPOSAL_STALE')),
      20_000,
    );
    expect(podDeletes(before)).toHaveLength(0);
    expect((await store.get(id))!.state).toBe('superseded');
    expect(pod()?.metadata.uid).toBe('b0000000-0000-4000-8000-000000000001');
  });

  it('ten concurrent approver clicks make one DELETE, audited, with an Event, verified', async () => {
    const next = proposalIdOf(proposalMessages(h.slack, CHANNEL)[1]!);
    const before = h.sim.requests.length;
    const statuses = await Promise.all(Array.from({ length: 10 }, () => click(next, APPROVER)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.method === 'chat.postMessage' &&
            c.body.channel === CHANNEL &&
            /Not fixed yet|Verified|new root cause/.test(String(c.body.text)),
        ),
      20_000,
    );
    await sleep(300);
    const deletes = podDeletes(before);
    expect(deletes.map((r) => [r.name, r.status])).toEqual([[POD, 200]]);
    // the new proposal was planned against the live pods after the replacement: its dry run came then, not with the approval
    expect(h.sim.requests.slice(before).filter((r) => r.verb === 'delete' && r.query.dryRun === 'All')).toHaveLength(0);
    expect(pod()).toBeUndefined();

    const log = await audit.list(next);
    expect(log.map((e) => e.event)).toEqual(['proposed', 'approved', 'applied', 'verified']);
    expect(log.find((e) => e.event === 'applied')!.patch).toContain('b0000000-0000-4000-8000-000000000001');
    const events = h.sim.store.list('v1', 'Event', NS).filter((e: any) => e.reason === 'RemediationApplied');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ involvedObject: { kind: 'InferenceService', name: 'churn-predictor' } });
    expect((events[0] as any).message).toContain(APPROVER);
    const thread = h.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.body.channel === CHANNEL && c.body.thread_ts)
      .map((c) => String(c.body.text));
    expect(
      thread.some((t) => t.startsWith(`Applied restart-pods to Pod ${NS}/${POD}`) && t.includes(`<@${APPROVER}>`)),
    ).toBe(true);
    expect((await store.get(next))!.state).toBe('verified');
    // the other nine clicks were refused (already approved or used)
    expect(
      ephemeralsTo(APPROVER).filter((c) => /PROPOSAL_ALREADY_APPROVED|PROPOSAL_USED/.test(String(c.body.text))).length,
    ).toBe(9);
  });
});
