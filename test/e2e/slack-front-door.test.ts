/**
 * The HTTP front door (src/bot/slack-receiver.ts) against the real bot: cheap refusals before the
 * body is read, malformed signed bodies answered at once without harm, Slack's retries of an event
 * already taken dropped, and a request acked by a process that died run by the next one.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { signedHeaders, slashCommandBody } from '../support/slack-signing.js';
import { until } from '../support/until.js';
import { SIGNING_SECRET, startBotHarness, type BotHarness } from './slack-harness.js';

let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => h.slack.reset());

const post = (body: string | Buffer, headers: Record<string, string>) =>
  fetch(h.eventsUrl, { method: 'POST', headers, body });
const signed = (body: string, contentType?: string, timestamp?: number) =>
  post(body, signedHeaders(SIGNING_SECRET, body, timestamp, contentType));
const jobCount = () => h.bot.queue.queue.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed');
const roots = (channel: string) =>
  h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === channel && !c.body.thread_ts);

async function stillAnswers(): Promise<void> {
  h.slack.reset();
  const res = await signed(slashCommandBody({ text: 'help', response_url: h.slack.responseUrl('alive') }));
  expect(res.status).toBe(200);
  await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url'));
}

describe('refused before the body is read', () => {
  it('refuses a timestamp more than 5 minutes in the future with 401 and queues nothing', async () => {
    const before = await jobCount();
    const res = await signed(
      slashCommandBody({ text: 'diagnose sklearn-iris', channel_id: 'C0FUT' }),
      undefined,
      Math.floor(Date.now() / 1000) + 6 * 60,
    );
    expect(res.status).toBe(401);
    await stillAnswers();
    expect(await jobCount()).toBe(before);
    expect(roots('C0FUT')).toHaveLength(0);
  });

  it('answers 413 to a body over the cap (1 MiB) without checking its signature', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'a');
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-slack-signature': 'v0=00',
    };
    const status = await post(big, headers).then(
      (r) => r.status,
      () => 'closed',
    );
    expect([413, 'closed']).toContain(status);
    await stillAnswers();
  });

  it('answers 401 to a request without the signature headers', async () => {
    const res = await post(slashCommandBody({ text: 'help' }), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(401);
  });
});

describe('malformed signed requests', () => {
  it.each([
    ['payload=null', 'payload=null', 'application/x-www-form-urlencoded', 400],
    ['a JSON null body', 'null', 'application/json', 400],
    ['payload that is not JSON', 'payload=%7Bnope', 'application/x-www-form-urlencoded', 400],
    ['a JSON array', '[1,2]', 'application/json', 400],
    [
      'block_actions without user or actions',
      `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions' }))}`,
      'application/x-www-form-urlencoded',
      200,
    ],
    [
      'block_actions with an unknown action id',
      `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions', user: { id: 'U1' }, actions: [{ action_id: 'nope', value: 'x'.repeat(10_000) }] }))}`,
      'application/x-www-form-urlencoded',
      200,
    ],
    [
      'an event callback without an event',
      JSON.stringify({ type: 'event_callback', event_id: 'Ev0BROKEN' }),
      'application/json',
      200,
    ],
  ])('answers %s at once and stays up', async (_what, body, type, status) => {
    const res = await signed(body, type);
    expect(res.status).toBe(status);
    await stillAnswers();
  });
});

describe("Slack's retries", () => {
  it('acks a retried app mention (same event_id, X-Slack-Retry-Num) without a second job or thread', async () => {
    const before = await jobCount();
    const eventId = `Ev${randomUUID().slice(0, 8)}`;
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: 'T0TEST',
      api_app_id: 'A0APP',
      event_id: eventId,
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'app_mention',
        user: 'U0ALICE',
        text: '<@U0BOT> diagnose sklearn-iris',
        channel: 'C0RETRY',
        ts: '1700000000.000100',
        event_ts: '1700000000.000100',
      },
    });
    const first = await signed(body, 'application/json');
    expect(first.status).toBe(200);
    const headers = {
      ...signedHeaders(SIGNING_SECRET, body, undefined, 'application/json'),
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    };
    const retry = await post(body, headers);
    expect(retry.status).toBe(200);
    await h.slack.waitFor(
      (calls) =>
        calls.some(
          (c) => c.method === 'chat.update' && c.body.channel === 'C0RETRY' && /^[❌✅❔]/u.test(String(c.body.text)),
        ),
      20_000,
    );
    expect(roots('C0RETRY')).toHaveLength(1);
    expect((await jobCount()) - before).toBe(1);
  });
});

describe('durable hand-off', () => {
  it('runs a request that a process acked and died before running', async () => {
    const redis = new Redis(h.config.redisUrl);
    try {
      const prefix = `${h.prefix}:${h.config.queue.name}`;
      const id = randomUUID();
      const body = Object.fromEntries(
        new URLSearchParams(slashCommandBody({ text: 'diagnose sklearn-iris', channel_id: 'C0ORPHAN' })),
      );
      // what a process killed right after its ack leaves behind: the entry, owned by a process whose alive key is gone
      await redis.hset(`${prefix}:inbox`, id, JSON.stringify({ id, body, receivedAt: Date.now() }));
      await redis.hset(`${prefix}:inbox-owner`, id, 'a-process-that-died');
      await h.slack.waitFor(
        (calls) =>
          calls.some(
            (c) =>
              c.method === 'chat.update' && c.body.channel === 'C0ORPHAN' && /^[❌✅❔]/u.test(String(c.body.text)),
          ),
        20_000,
      );
      expect(roots('C0ORPHAN')).toHaveLength(1);
      await until(async () => (await redis.hlen(`${prefix}:inbox`)) === 0, 'the entry to be forgotten once run');
    } finally {
      redis.disconnect();
    }
  });
});
