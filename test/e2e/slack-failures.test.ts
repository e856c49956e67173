/**
 * End to end, when things go wrong: Redis down at command time (past the hold: "queue unavailable";
 * a restart within it: held and answered), Slack answering 429, no worker running when the job is
 * queued (and another process's worker picking it up).
 */
import { startRedisServer, type RedisHandle } from '../support/redis-server.js';
import { postSignedCommand } from '../support/slack-signing.js';
import { testClock } from '../support/test-clock.js';
import { until } from '../support/until.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from './slack-harness.js';

const verdictPosted = (channel: string) => (calls: BotHarness['slack']['calls']) =>
  calls.some((c) => c.method === 'chat.update' && c.body.channel === channel && /^[❌✅❔]/u.test(String(c.body.text)));

describe('Redis down at command time, for longer than a command waits for it', () => {
  let redis: RedisHandle;
  let h: BotHarness;
  const clock = testClock();
  /** /readyz past its 2-second cache. */
  const readiness = async () => {
    clock.advance(2100);
    const res = await fetch(`${h.bot.metricsUrl}/readyz`);
    return { status: res.status, checks: ((await res.json()) as { checks: { redis: string } }).checks };
  };
  beforeAll(async () => {
    redis = await startRedisServer();
    // a command waits 300 ms for Redis to come back, then is told
    h = await startBotHarness({
      redisUrl: redis.url,
      now: clock.now,
      file: { queue: { concurrency: 4, backoffMs: 50, attempts: 3, holdMs: 300 } },
    });
  });
  afterAll(async () => {
    await h?.close();
    await redis?.stop();
  });

  it('acks, answers "queue unavailable" ephemerally, stays up, and works again when Redis is back', async () => {
    const port = redis.port;
    await redis.stop();
    const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: 'diagnose sklearn-iris',
      channel_id: 'C0DOWN',
      response_url: h.slack.responseUrl('down'),
    });
    expect(res.status).toBe(200);
    expect(res.ms).toBeLessThan(3000);
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url'), 20_000);
    const answer = h.slack.callsTo('response_url')[0]!;
    expect(answer.body.response_type).toBe('ephemeral');
    expect(answer.body.text).toContain('queue is unavailable');
    expect(answer.body.text).toContain('try again');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    // still alive: health is fine, readiness says why not
    expect((await fetch(`${h.bot.metricsUrl}/healthz`)).status).toBe(200);
    const down = await readiness();
    expect(down.status).toBe(503);
    expect(down.checks.redis).toMatch(/^unavailable/);

    redis = await startRedisServer({ port });
    // the connections reconnect with a back-off: wait until readiness says Redis answers and the queue answers again
    await until(async () => (await readiness()).checks.redis === 'ok', 'readiness to see Redis back');
    await until(
      () =>
        h.bot.queue.running({ namespace: 'default', name: 'sklearn-iris' }).then(
          () => true,
          () => false,
        ),
      'the queue to answer again',
    );
    h.slack.reset();
    const again = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: 'diagnose sklearn-iris',
      channel_id: 'C0DOWN',
    });
    expect(again.status).toBe(200);
    await h.slack.waitFor(verdictPosted('C0DOWN'), 20_000);
  }, 40_000);
});

describe('Redis restarting at command time', () => {
  let redis: RedisHandle;
  let h: BotHarness;
  beforeAll(async () => {
    redis = await startRedisServer();
    h = await startBotHarness({ redisUrl: redis.url }); // the shipped hold: 8 s
  });
  afterAll(async () => {
    await h?.close();
    await redis?.stop();
  });

  it('holds a command while Redis restarts and answers it when Redis is back, never "queue unavailable"', async () => {
    const port = redis.port;
    await redis.stop();
    const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: 'diagnose sklearn-iris',
      channel_id: 'C0RESTART',
      response_url: h.slack.responseUrl('restart'),
    });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0); // held, not answered
    redis = await startRedisServer({ port });
    await h.slack.waitFor(verdictPosted('C0RESTART'), 30_000);
    const told = h.slack.callsTo('response_url').map((c) => String(c.body.text));
    expect(told.filter((t) => t.includes('queue is unavailable'))).toEqual([]);
    const roots = h.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.body.channel === 'C0RESTART' && !c.body.thread_ts);
    expect(roots).toHaveLength(1);
  }, 60_000);
});

describe('Slack and worker trouble', () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({ role: 'web' });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.slack.reset());

  it('keeps a job queued while no worker runs; a worker started later (another process) answers it', async () => {
    const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: 'diagnose sklearn-iris',
      channel_id: 'C0LATE',
    });
    expect(res.status).toBe(200);
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'chat.postMessage' && c.body.channel === 'C0LATE'));
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.bot.queue.queue.getJobCountByTypes('waiting')).toBe(1);
    const worker = await h.startAnother('worker');
    expect(worker.app).toBeNull();
    await h.slack.waitFor(verdictPosted('C0LATE'), 20_000);
    const replies = h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0LATE' && c.body.thread_ts);
    expect(textOf(replies[0]!.body)).toContain('STORAGE_URI_NOT_FOUND');
    await worker.close();
  });

  it('retries Slack 429s honouring Retry-After', async () => {
    const worker = await h.startAnother('worker');
    h.slack.rateLimitNext(1, 1, 'chat.postMessage');
    h.slack.rateLimitNext(1, 1, 'chat.update');
    const started = Date.now();
    const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: 'diagnose sklearn-iris',
      channel_id: 'C0RATE',
    });
    expect(res.status).toBe(200);
    await h.slack.waitFor(verdictPosted('C0RATE'), 20_000);
    expect(
      h.slack.calls
        .filter((c) => c.status === 429)
        .map((c) => c.method)
        .sort(),
    ).toEqual(['chat.postMessage', 'chat.update']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    const replies = h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0RATE' && c.body.thread_ts);
    expect(textOf(replies[0]!.body)).toContain('STORAGE_URI_NOT_FOUND');
    await worker.close();
  }, 30_000);
});
