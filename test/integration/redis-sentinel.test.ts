/**
 * The bot on Redis Sentinel (a master, a replica, a sentinel, started here on loopback ports) through
 * a redis-sentinel:// address: a diagnosis queued by the web role while no worker runs survives the
 * master being SIGKILLed; after the sentinel promotes the replica the worker runs it (no job lost) and
 * new commands work as before.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import type { RunningServe } from '../../src/app/serve.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from '../e2e/slack-harness.js';
import { startRedisSentinel, type RedisSentinelHandle } from '../support/redis-topologies.js';
import { postSignedCommand } from '../support/slack-signing.js';
import { until } from '../support/until.js';

let redis: RedisSentinelHandle;
let h: BotHarness;

beforeAll(async () => {
  redis = await startRedisSentinel();
  h = await startBotHarness({ scenario: 'storage-uri-not-found', role: 'web', redisUrl: redis.url });
}, 120_000);
afterAll(async () => {
  try {
    await h?.close();
  } finally {
    await redis?.stop();
  }
});

const roots = (channel: string) =>
  h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === channel && !c.body.thread_ts);
const reported = (channel: string) =>
  h.slack
    .callsTo('chat.postMessage')
    .some((c) => c.body.channel === channel && c.body.thread_ts && textOf(c.body).includes('STORAGE_URI_NOT_FOUND'));

describe('Redis Sentinel failover', () => {
  let worker: RunningServe;

  it('keeps a job queued before the master dies and runs it after the failover', async () => {
    const oldMaster = await redis.masterPort();
    expect(oldMaster).toBe(redis.master.port);
    await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: 'diagnose sklearn-iris -n default',
      channel_id: 'C0SEN1',
    });
    await h.slack.waitFor(() => roots('C0SEN1').length > 0);
    // the job is added after the root is posted: wait until the master holds it (killing it before then tests
    // a command that never reached Redis: it is told "queue unavailable", not run), then until the replica has
    // it too (asynchronous replication)
    const m = new Redis(redis.master.port, '127.0.0.1');
    try {
      await until(
        async () => (await m.keys(`*${h.prefix}*diagnose__default__sklearn-iris__*`)).length > 0,
        'the diagnosis job on the master',
        10_000,
        20,
      );
      expect(await m.call('WAIT', '1', '5000')).toBe(1);
    } finally {
      // also when the wait fails: a client left open retries the killed master's port on a timer for ever,
      // and the run never ends
      m.disconnect();
    }
    await redis.master.kill();
    await until(
      async () => (await redis.masterPort()) === redis.replica.port,
      'the sentinel to promote the replica',
      30_000,
      100,
    );
    worker = await h.startAnother('worker');
    await h.slack.waitFor(() => reported('C0SEN1'), 30_000);
    expect(reported('C0SEN1')).toBe(true);
  }, 90_000);

  it('answers new commands after the failover', async () => {
    // a loaded machine (CI, two busy loops) took longer than 30 s to reconnect: wait for the event, not a margin
    await until(
      async () =>
        h.bot.queue.ping().then(
          () => true,
          () => false,
        ),
      'the web process to reach the new master',
      90_000,
      100,
    );
    await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
      text: 'diagnose sklearn-iris -n default',
      channel_id: 'C0SEN2',
    });
    await h.slack.waitFor(() => reported('C0SEN2'), 60_000);
    expect(worker.worker).not.toBeNull();
  }, 180_000);
});
