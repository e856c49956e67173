/**
 * End to end over HTTP: signed slash commands to the real Bolt app, jobs on real Redis, the worker
 * diagnosing the storage-uri-not-found scenario served by the simulator, answers in the fake Slack.
 */
import { diagnosisThread } from '../support/diagnosis-thread.js';
import { postSignedCommand } from '../support/slack-signing.js';
import { SIGNING_SECRET, BOT_TOKEN, startBotHarness, textOf, type BotHarness } from './slack-harness.js';

let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => h.slack.reset());

const jobCount = () => h.bot.queue.queue.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed');
const verdictPosted = (channel: string) => (calls: typeof h.slack.calls) =>
  calls.some((c) => c.method === 'chat.update' && c.body.channel === channel && /^[❌✅❔]/u.test(String(c.body.text)));

describe('slash command over HTTP', () => {
  it('acks within 3 s, posts a root message, then the root cause in its thread, then the verdict', async () => {
    const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: 'diagnose sklearn-iris -n default',
      channel_id: 'C0E2E1',
      response_url: h.slack.responseUrl('a'),
    });
    expect(res.status).toBe(200);
    expect(res.ms).toBeLessThan(3000);
    await h.slack.waitFor(verdictPosted('C0E2E1'), 20_000);

    const { rootTs, replies } = diagnosisThread(
      h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0E2E1'),
    );
    expect(textOf(replies[0]!.body)).toContain('STORAGE_URI_NOT_FOUND');
    expect(textOf(replies[0]!.body)).toContain('gs://kfserving-samples/models/sklearn/iris-1');
    expect(textOf(replies[0]!.body)).toMatch(/```\\n\s*\d+ │ /);
    const later = replies
      .slice(1)
      .map((r) => textOf(r.body))
      .join('\n');
    expect(later).toContain('STORAGE_INIT_FAILED');
    expect(later).toContain('REVISION_MISSING');
    const verdict = h.slack
      .callsTo('chat.update')
      .filter((u) => u.body.ts === rootTs)
      .at(-1)!;
    expect(verdict.body.text).toMatch(/^❌ default\/sklearn-iris is not ready: STORAGE_URI_NOT_FOUND/);
    // order: root, replies, then the verdict
    expect(verdict.at).toBeGreaterThanOrEqual(replies.at(-1)!.at);
    for (const c of h.slack.calls.filter((c) => c.method !== 'response_url'))
      expect(c.auth).toBe(`Bearer ${BOT_TOKEN}`);
    for (const c of h.slack.calls) expect(JSON.stringify(c.body)).not.toContain(SIGNING_SECRET);
  });

  it('accepts NS/NAME; a name that does not exist is told only to the asker, with "Diagnose NAME" for the close names, and the public root message goes away', async () => {
    const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: 'diagnose default/sklearn-irs',
      channel_id: 'C0E2E2',
      user_id: 'U0TYPO',
    });
    expect(res.status).toBe(200);
    await h.slack.waitFor(
      (calls) => calls.some((c) => c.method === 'chat.delete' && c.body.channel === 'C0E2E2'),
      20_000,
    );
    const root = h.slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0E2E2')!;
    expect(h.slack.callsTo('chat.delete').find((c) => c.body.channel === 'C0E2E2')!.body.ts).toBe(root.response!.ts);
    // no public thread for a typo
    expect(
      h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0E2E2' && c.body.thread_ts),
    ).toHaveLength(0);
    const told = h.slack.callsTo('chat.postEphemeral').find((c) => c.body.channel === 'C0E2E2')!;
    expect(told.body.user).toBe('U0TYPO');
    expect(String(told.body.text)).toContain('ISVC_NOT_FOUND');
    expect(JSON.stringify(told.body.blocks)).toContain('"value":"default/sklearn-iris"');
    expect(JSON.stringify(told.body.blocks)).toContain('Diagnose sklearn-iris');
  });

  it.each([
    ['diagnose', 'diagnose needs the name'],
    ['explain sklearn-iris', 'Unknown subcommand "explain"'],
    ['diagnose Bad_Name', 'is not a valid InferenceService name'],
    ['diagnose sklearn-iris -n kube-system', 'Namespace "kube-system" is not one this bot may read'],
    ['diagnose a b', 'diagnose takes one InferenceService name'],
  ])('answers "%s" with an ephemeral usage message and queues nothing', async (text, problem) => {
    const before = await jobCount();
    const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text,
      channel_id: 'C0BAD',
      response_url: h.slack.responseUrl('bad'),
    });
    expect(res.status).toBe(200);
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url'));
    const answer = h.slack.callsTo('response_url')[0]!;
    expect(answer.body.response_type).toBe('ephemeral');
    expect(answer.body.text).toContain(problem);
    expect(answer.body.text).toContain('/isvc diagnose NAME [-n NAMESPACE]');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(await jobCount()).toBe(before);
  });

  it('answers help ephemerally', async () => {
    await postSignedCommand(h.eventsUrl, SIGNING_SECRET, { text: 'help', response_url: h.slack.responseUrl('help') });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url'));
    expect(h.slack.callsTo('response_url')[0]!.body.text).toContain('/isvc status');
  });

  it.each([
    ['a bad signature', { signature: 'v0=0000000000000000000000000000000000000000000000000000000000000000' }],
    ['a timestamp older than 5 minutes', { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }],
  ])('rejects %s with 401 and queues nothing', async (_what, options) => {
    const before = await jobCount();
    const res = await postSignedCommand(
      h.eventsUrl,
      SIGNING_SECRET,
      { text: 'diagnose sklearn-iris', channel_id: 'C0SIG' },
      options,
    );
    expect(res.status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect(await jobCount()).toBe(before);
    expect(h.slack.calls.filter((c) => c.method !== 'auth.test')).toHaveLength(0);
  });

  it('runs one job for duplicate requests and says so in the thread', async () => {
    // A slow API server (150 ms a request) keeps the first diagnosis running while the others arrive.
    const slow = await startBotHarness({ latencyMs: 150, slack: h.slack });
    const jobCount = () =>
      slow.bot.queue.queue.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed');
    try {
      const before = await jobCount();
      const send = (user: string) =>
        postSignedCommand(slow.eventsUrl, SIGNING_SECRET, {
          text: 'diagnose sklearn-iris',
          channel_id: 'C0DUP',
          user_id: user,
        });
      const results = await Promise.all([send('U1'), send('U2'), send('U3')]);
      for (const r of results) expect(r.status).toBe(200);
      await h.slack.waitFor(verdictPosted('C0DUP'), 20_000);
      await new Promise((r) => setTimeout(r, 300));
      expect((await jobCount()) - before).toBe(1);
      const firstReplies = h.slack
        .callsTo('chat.postMessage')
        .filter((c) => c.body.thread_ts && textOf(c.body).includes('Root cause: `STORAGE_URI_NOT_FOUND`'));
      expect(firstReplies.length).toBeGreaterThanOrEqual(1);
      expect(
        h.slack.calls.filter(
          (c) => c.method === 'chat.postMessage' && c.body.text === 'Diagnosing default/sklearn-iris…',
        ),
      ).toHaveLength(1);
      expect(firstReplies).toHaveLength(1);
      const notes = h.slack
        .callsTo('chat.postMessage')
        .filter((c) => String(c.body.text).includes('a diagnosis is already running'));
      expect(notes).toHaveLength(2);
      for (const n of notes) expect(n.body.thread_ts).toBe(firstReplies[0]!.body.thread_ts);
    } finally {
      await slow.close();
    }
  });

  it('serves /healthz, /readyz and /metrics on the metrics port, not on the port of /slack/events', async () => {
    expect(h.bot.metricsPort).not.toBe(h.bot.port);
    expect((await fetch(`${h.bot.metricsUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${h.bot.metricsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { redis: 'ok', kubernetes: 'ok' } });
    const metrics = await (await fetch(`${h.bot.metricsUrl}/metrics`)).text();
    expect(metrics).toContain('isvc_doctor_commands_total');
    expect(metrics).toMatch(/isvc_doctor_diagnoses_total\{outcome="reported",root_cause="STORAGE_URI_NOT_FOUND"\} \d+/);
    // an ingress that routes Slack's port reaches none of them
    for (const route of ['/metrics', '/healthz', '/readyz'])
      expect((await fetch(`${h.bot.url}${route}`)).status).toBe(404);
  });
});
