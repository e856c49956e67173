/**
 * Requests (part of the reliability suite), against a real `serve` child: forged signatures, stale and
 * future timestamps, missing or half headers, a body changed after signing, a signature made with
 * another secret → 401 each, nothing queued and nothing posted; Slack's retries of an accepted event
 * (`X-Slack-Retry-Num`, the same `event_id`, also arriving together) → no second job or thread.
 * Prints `reliability: forged accepted 0` and `reliability: slack retries that made a second job 0`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { FakeSlackApi } from '../support/fake-slack-api.js';
import { signedHeaders, slackSignature, slashCommandBody } from '../support/slack-signing.js';
import { testRedisUrl } from '../support/test-redis.js';
import { figure, postSigned, workDir, type ServeChild, startBotUnderTest, type BotUnderTest } from './serve-child.js';

const SECRET = `rel-requests-${randomUUID()}`;
const dir = workDir('requests');
let slack: FakeSlackApi;
let bot: ServeChild;
let queue: Queue;

let started: BotUnderTest;

beforeAll(async () => {
  started = await startBotUnderTest({ dir, secret: SECRET, scenario: 'storage-uri-not-found' });
  ({ slack, bot } = started);
  queue = new Queue(bot.queueName, { connection: { url: testRedisUrl() } as never });
}, 120_000);

afterAll(async () => {
  await queue?.close();
  await started?.stop();
});

const jobs = async () =>
  Object.values(await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized')).reduce(
    (a, b) => a + b,
    0,
  );
const now = () => Math.floor(Date.now() / 1000);

/** The answer to a valid `help`: once it is in, anything acked before it has been run. */
async function barrier(): Promise<void> {
  const id = randomUUID();
  const res = await postSigned(
    bot.eventsUrl,
    SECRET,
    slashCommandBody({ text: 'help', response_url: slack.responseUrl(id) }),
  );
  expect(res.status).toBe(200);
  await slack.waitFor((calls) => calls.some((c) => c.method === 'response_url' && c.responseId === id), 20_000);
}

describe('forged and replayed requests', () => {
  it('refuses every forgery with 401 and queues nothing', async () => {
    const body = (channel: string) =>
      slashCommandBody({
        text: 'diagnose sklearn-iris -n default',
        channel_id: channel,
        response_url: slack.responseUrl(`forged-${channel}`),
      });
    const b = body('C0FORGED');
    const forgeries: Array<[string, () => Promise<number>]> = [
      [
        'a bad signature',
        async () =>
          (await postSigned(bot.eventsUrl, SECRET, b, { headers: { 'x-slack-signature': `v0=${'0'.repeat(64)}` } }))
            .status,
      ],
      [
        'a signature made with another secret',
        async () => (await postSigned(bot.eventsUrl, 'not-the-secret', b)).status,
      ],
      [
        'a stale timestamp (6 minutes old)',
        async () => (await postSigned(bot.eventsUrl, SECRET, b, { timestamp: now() - 6 * 60 })).status,
      ],
      [
        'a future timestamp (6 minutes ahead)',
        async () => (await postSigned(bot.eventsUrl, SECRET, b, { timestamp: now() + 6 * 60 })).status,
      ],
      [
        'a timestamp a day ahead',
        async () => (await postSigned(bot.eventsUrl, SECRET, b, { timestamp: now() + 86_400 })).status,
      ],
      [
        'a timestamp that is not a number',
        async () =>
          (await postSigned(bot.eventsUrl, SECRET, b, { headers: { 'x-slack-request-timestamp': 'soon' } })).status,
      ],
      [
        'a body changed after signing',
        async () => {
          const headers = signedHeaders(SECRET, b);
          return (
            await fetch(bot.eventsUrl, { method: 'POST', headers, body: b.replace('sklearn-iris', 'sklearn-iriz') })
          ).status;
        },
      ],
      [
        'no signature headers',
        async () =>
          (
            await fetch(bot.eventsUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: b,
            })
          ).status,
      ],
      [
        'a signature without its timestamp',
        async () =>
          (
            await fetch(bot.eventsUrl, {
              method: 'POST',
              headers: {
                'content-type': 'application/x-www-form-urlencoded',
                'x-slack-signature': slackSignature(SECRET, now(), b),
              },
              body: b,
            })
          ).status,
      ],
      [
        'a timestamp without a signature',
        async () =>
          (
            await fetch(bot.eventsUrl, {
              method: 'POST',
              headers: {
                'content-type': 'application/x-www-form-urlencoded',
                'x-slack-request-timestamp': String(now()),
              },
              body: b,
            })
          ).status,
      ],
      [
        'a signature in another scheme (v1=)',
        async () =>
          (
            await postSigned(bot.eventsUrl, SECRET, b, {
              headers: { 'x-slack-signature': slackSignature(SECRET, now(), b).replace('v0=', 'v1=') },
            })
          ).status,
      ],
    ];
    const before = await jobs();
    const statuses: Record<string, number> = {};
    for (const [what, send] of forgeries) statuses[what] = await send();
    const accepted = Object.values(statuses).filter((s) => s !== 401).length;
    figure('forged accepted', accepted);
    figure('forged tried', forgeries.length);
    await barrier();
    expect(statuses).toEqual(Object.fromEntries(forgeries.map(([w]) => [w, 401])));
    expect(await jobs()).toBe(before);
    expect(
      slack.calls.filter((c) => c.body.channel === 'C0FORGED' || String(c.responseId ?? '').startsWith('forged-')),
    ).toEqual([]);
  });
});

describe("Slack's retries", () => {
  it('acks retries of an accepted app mention without a second job or thread (also when they arrive together)', async () => {
    const channel = 'C0RETRIES';
    const eventId = `Ev${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: 'T0TEST',
      api_app_id: 'A0APP',
      event_id: eventId,
      event_time: now(),
      event: {
        type: 'app_mention',
        user: 'U0ALICE',
        text: '<@U0BOT> diagnose sklearn-iris',
        channel,
        ts: `${now()}.000100`,
        event_ts: `${now()}.000100`,
      },
    });
    const before = await jobs();
    const first = await postSigned(bot.eventsUrl, SECRET, body, { contentType: 'application/json' });
    const retries = await Promise.all(
      [1, 2, 3, 3].map((n) =>
        postSigned(bot.eventsUrl, SECRET, body, {
          contentType: 'application/json',
          headers: { 'x-slack-retry-num': String(n), 'x-slack-retry-reason': 'http_timeout' },
        }),
      ),
    );
    expect([first, ...retries].map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    await slack.waitFor(
      (calls) =>
        calls.some(
          (c) => c.method === 'chat.update' && c.body.channel === channel && /^[❌✅❔]/u.test(String(c.body.text)),
        ),
      60_000,
    );
    await barrier();
    const roots = slack.callsTo('chat.postMessage').filter((c) => c.body.channel === channel && !c.body.thread_ts);
    const secondJobs = (await jobs()) - before - 1;
    figure('slack retries that made a second job', secondJobs + (roots.length - 1));
    expect(roots).toHaveLength(1);
    expect(secondJobs).toBe(0);
  });
});
