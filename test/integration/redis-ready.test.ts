/**
 * A producer connection (no offline queue) refuses commands until it has connected; redisReady
 * waits for that, so the watcher's first read of its store right after start-up succeeds.
 */
import { createRedisConnection } from '../../src/queue/redis-connection.js';
import { redisReady } from '../../src/queue/redis-ready.js';
import { testRedisUrl } from '../support/test-redis.js';

describe('redisReady', () => {
  it('a fresh producer connection refuses a command at once, and takes it once redisReady resolved', async () => {
    const early = createRedisConnection(testRedisUrl(), 'producer');
    const waited = createRedisConnection(testRedisUrl(), 'producer');
    try {
      await expect(early.ping()).rejects.toThrow(/Stream isn't writeable/);
      await redisReady(waited, 5000);
      await expect(waited.ping()).resolves.toBe('PONG');
    } finally {
      early.disconnect();
      waited.disconnect();
    }
  });

  it('resolves at once on a connection that is already ready', async () => {
    const redis = createRedisConnection(testRedisUrl(), 'producer');
    try {
      await redisReady(redis, 5000);
      await redisReady(redis, 1); // a 1 ms budget is enough: nothing to wait for
      await expect(redis.ping()).resolves.toBe('PONG');
    } finally {
      redis.disconnect();
    }
  });

  it('rejects with the connection state when Redis does not answer within the budget', async () => {
    const redis = createRedisConnection('redis://127.0.0.1:1', 'producer');
    try {
      await expect(redisReady(redis, 300)).rejects.toThrow(/Redis not ready after 300 ms \(connection \w+\)/);
    } finally {
      redis.disconnect();
    }
  });
});
