/**
 * Many clusters, one Slack app, with real processes on loopback: two simulators serving
 * different scenarios (a: an OOM-killed predictor, b: a storage URI that does not exist), an agent
 * per cluster, one web process without any kubeconfig, one Redis. Each cluster's command is answered
 * from that cluster and names it; a remediation approved for a changes only a's simulator; a job
 * queued while b's agent is SIGKILLed runs once it is back; a cluster without a live agent gets the
 * answer at once.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { postSignedCommand } from '../support/slack-signing.js';
import { removeTempDirs } from '../support/temp-dirs.js';
import { startMultiClusterHarness, SIGNING_SECRET, type MultiClusterHarness } from './multi-cluster-harness.js';
import { postSignedClick, proposalIdOf, proposalMessages, writes } from './remediation-harness.js';
import { textOf } from './slack-harness.js';

const APPROVER = 'U0APPROVER';
let h: MultiClusterHarness;

beforeAll(async () => {
  h = await startMultiClusterHarness({
    scenarios: { a: 'oom-exit-code-137', b: 'storage-uri-not-found' },
    clusters: {
      a: { channels: ['C0A'], alerts: { channel: 'C0AALERT' } },
      b: { channels: ['C0B'], alerts: { channel: 'C0BALERT' } },
      c: {},
    },
    // a killed agent stays "live" for a minute: the restart test queues a job in that window
    file: {
      approvers: [APPROVER],
      agents: { heartbeat: '200ms', staleAfter: '60s' },
      alerts: { unreadyAfter: '1s', groupWindow: '1s' },
      remediation: { verifyTimeout: '1s', verifyPoll: '100ms' },
    },
  });
  await Promise.all([h.startAgent('a'), h.startAgent('b')]);
}, 120_000);
afterAll(async () => {
  await h?.close();
  removeTempDirs();
});

const command = (text: string, channel: string, id: string) =>
  postSignedCommand(h.eventsUrl, SIGNING_SECRET, { text, channel_id: channel, response_url: h.slack.responseUrl(id) });
const threadReplies = (channel: string) =>
  h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === channel && c.body.thread_ts);
const responses = (id: string) => h.slack.callsTo('response_url').filter((c) => c.responseId === id);
const reportIn = async (channel: string, code: string) => {
  await h.slack.waitFor(() => threadReplies(channel).some((c) => textOf(c.body).includes(code)), 30_000);
  return threadReplies(channel).find((c) => textOf(c.body).includes(code))!;
};

describe('one web process, an agent per cluster', () => {
  it('answers each cluster from that cluster, and every message names it', async () => {
    expect((await command('diagnose sklearn-iris -n default', 'C0A', 'a1')).status).toBe(200);
    expect((await command('diagnose sklearn-iris -n default', 'C0B', 'b1')).status).toBe(200);
    const a = await reportIn('C0A', 'OOM_KILLED');
    const b = await reportIn('C0B', 'STORAGE_URI_NOT_FOUND');
    expect(textOf(a.body)).toContain('cluster *a*');
    expect(textOf(b.body)).toContain('cluster *b*');
    expect(textOf(a.body)).not.toContain('STORAGE_URI_NOT_FOUND');
    const roots = h.slack.callsTo('chat.postMessage').filter((c) => !c.body.thread_ts);
    expect(roots.find((c) => c.body.channel === 'C0A')!.body.text).toMatch(/^\[a\] /);
    expect(roots.find((c) => c.body.channel === 'C0B')!.body.text).toMatch(/^\[b\] /);
    expect(h.sims.a!.requests.length).toBeGreaterThan(0);
    expect(h.sims.b!.requests.length).toBeGreaterThan(0);
  }, 60_000);

  it("posts each cluster's incidents to that cluster's alerts channel, naming the cluster", async () => {
    const posts = (channel: string) =>
      h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === channel && !c.body.thread_ts);
    await h.slack.waitFor(() => posts('C0AALERT').length > 0 && posts('C0BALERT').length > 0, 30_000);
    expect(textOf(posts('C0AALERT')[0]!.body)).toContain('cluster *a*');
    expect(textOf(posts('C0BALERT')[0]!.body)).toContain('cluster *b*');
    expect(posts('C0AALERT').some((c) => textOf(c.body).includes('cluster *b*'))).toBe(false);
  });

  it("--cluster overrides the channel's cluster", async () => {
    const before = threadReplies('C0A').length;
    await command('diagnose sklearn-iris --cluster b', 'C0A', 'a2');
    await h.slack.waitFor(
      () =>
        threadReplies('C0A')
          .slice(before)
          .some((c) => textOf(c.body).includes('STORAGE_URI_NOT_FOUND')),
      30_000,
    );
  });

  it("a remediation approved for cluster a changes only a's simulator", async () => {
    const ofA = () => proposalMessages(h.slack, 'C0A').filter((c) => textOf(c.body).includes('raise-memory-limit'));
    await h.slack.waitFor(() => ofA().length > 0, 30_000);
    const proposal = ofA()[0]!;
    expect(textOf(proposal.body)).toContain('cluster *a*');
    const bBefore = h.sims.b!.requests.length;
    expect(
      await postSignedClick(h.eventsUrl, SIGNING_SECRET, {
        actionId: 'remediation.approve',
        value: proposalIdOf(proposal),
        user: APPROVER,
        channel: 'C0A',
        messageTs: String(proposal.response!.ts),
      }),
    ).toBe(200);
    await h.slack.waitFor(
      () => writes(h.sims.a!.requests, { verb: 'patch', resource: 'inferenceservices' }).length > 0,
      30_000,
    );
    expect(writes(h.sims.a!.requests, { verb: 'patch', resource: 'inferenceservices' })).toHaveLength(1);
    // b's simulator saw only its watcher's Lease: no patch, delete or Event
    const notLease = (r: { resource: string }) => r.resource !== 'leases';
    expect(writes(h.sims.b!.requests, { events: true }).filter(notLease)).toHaveLength(0);
    expect(writes(h.sims.b!.requests.slice(bBefore), { events: true }).filter(notLease)).toHaveLength(0);
  });

  it("hands a rollout to its cluster's agent, which reads that cluster", async () => {
    const before = h.slack.calls.length;
    const bReads = h.sims.b!.requests.length;
    await command('rollout sklearn-iris --cluster b', 'C0A', 'roll');
    await h.slack.waitFor(
      () =>
        h.slack.calls
          .slice(before)
          .some(
            (c) =>
              c.method === 'chat.postMessage' && c.body.channel === 'C0A' && textOf(c.body).includes('cluster *b*'),
          ),
      30_000,
    );
    expect(h.sims.b!.requests.slice(bReads).some((r) => r.resource === 'inferenceservices' && r.verb === 'get')).toBe(
      true,
    );
  });

  it('runs the job queued while an agent was SIGKILLed once it is back', async () => {
    const agent = h.agents.get('b')!;
    const exited = new Promise((r) => agent.child.once('exit', r));
    agent.child.kill('SIGKILL');
    await exited;
    const before = threadReplies('C0B').length;
    const rootsBefore = h.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.body.channel === 'C0B' && !c.body.thread_ts).length;
    await command('diagnose sklearn-iris', 'C0B', 'b-killed');
    // queued: the root message is there, the report is not (no agent runs it)
    await h.slack.waitFor(
      () =>
        h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0B' && !c.body.thread_ts).length >
        rootsBefore,
    );
    expect(
      threadReplies('C0B')
        .slice(before)
        .some((c) => textOf(c.body).includes('STORAGE_URI_NOT_FOUND')),
    ).toBe(false);
    await h.startAgent('b');
    await h.slack.waitFor(
      () =>
        threadReplies('C0B')
          .slice(before)
          .some((c) => textOf(c.body).includes('STORAGE_URI_NOT_FOUND')),
      30_000,
    );
  });

  it('answers at once for a cluster whose agent is gone, naming when it was last seen', async () => {
    await command('diagnose sklearn-iris --cluster c', 'C0A', 'c-never');
    await h.slack.waitFor(() => responses('c-never').length > 0);
    expect(responses('c-never')[0]!.body.text).toContain('cluster c has no agent connected (none has connected yet)');
    await h.agents.get('a')!.stop();
    await command('status', 'C0A', 'a-gone');
    await h.slack.waitFor(() => responses('a-gone').length > 0);
    expect(responses('a-gone')[0]!.body.text).toMatch(/cluster a has no agent connected since <!date\^\d+\^/);
  });

  it("/isvc clusters lists the clusters with their agents' heartbeat and version", async () => {
    await command('clusters', 'C0A', 'list');
    await h.slack.waitFor(() => responses('list').length > 0);
    const text = textOf(responses('list')[0]!.body);
    // the SIGKILLed agent of b is still within staleAfter: it counts until then
    expect(text).toMatch(/\*b\* — 🟢 \d agents?, v\d/);
    expect(text).toMatch(/\*a\* — 🔴 no agent connected since <!date/);
    expect(text).toContain('*c* — 🔴 no agent has connected yet');
  });
});
