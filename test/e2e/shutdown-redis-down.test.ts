/**
 * SIGTERM while Redis is down (defect 12): the graceful shutdown of `serve` (startServe's close, what
 * the SIGTERM handler runs) finishes although no Redis answers, instead of waiting for it forever.
 */
import { startRedisServer, type RedisHandle } from '../support/redis-server.js';
import { until } from '../support/until.js';
import { startBotHarness, type BotHarness } from './slack-harness.js';

let redis: RedisHandle;
let h: BotHarness;
beforeAll(async () => {
  redis = await startRedisServer();
  h = await startBotHarness({ redisUrl: redis.url });
});
afterAll(async () => {
  await Promise.all([h?.sim.close(), h?.slack.close()]);
  await redis?.stop();
});

it('closes every part with Redis gone (the Slack side, the workers, the queue, the watcher)', async () => {
  await redis.stop();
  await until(async () => (await fetch(`${h.bot.metricsUrl}/readyz`)).status === 503, 'readiness to see Redis gone');
  // resolves (without the bounds it waited for Redis forever, and SIGTERM never exited)
  await expect(h.bot.close({ timeoutMs: 1000 })).resolves.toBeUndefined();
});
