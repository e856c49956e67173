/**
 * A BullMQ Queue whose setup on Redis failed is set up again (recovering-queue.ts), on a real
 * redis-server. The setup is made to fail the same way every time: the producer's Redis user may not
 * run INFO (BullMQ's version check) until the test allows it. In production the same rejected setup
 * comes from Redis going away while that INFO is in flight (a restart or failover as the bot starts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { RecoveringQueue } from '../../src/queue/recovering-queue.js';
import { createRedisConnection } from '../../src/queue/redis-connection.js';
import { startRedisServer, type RedisHandle } from '../support/redis-server.js';
import { until } from '../support/until.js';

let redis: RedisHandle;
let admin: Redis;
beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.url);
});
afterAll(async () => {
  admin.disconnect();
  await redis.stop();
});

/** A producer connection as a user of its own, who may not run INFO. */
async function producerWithoutInfo(user: string): Promise<Redis> {
  await admin.call('ACL', 'SETUSER', user, 'on', '>pw', '~*', '&*', '+@all', '-info');
  // no ready check: the connection itself is fine, only BullMQ's INFO is refused
  return createRedisConnection(`redis://${user}:pw@127.0.0.1:${redis.port}`, 'producer', undefined, {
    enableReadyCheck: false,
  });
}
const allowInfo = (user: string) => admin.call('ACL', 'SETUSER', user, '+info');

describe('RecoveringQueue', () => {
  it('replaces a Queue whose setup failed, so adds work once Redis answers its setup', async () => {
    const connection = await producerWithoutInfo('recovering');
    const warnings: string[] = [];
    const queue = new RecoveringQueue(
      () => {
        const q = new Queue('recovering', { connection });
        q.on('error', () => undefined);
        return q;
      },
      'test queue',
      { warn: (m) => warnings.push(m) },
    );
    try {
      await expect(queue.current.add('job', { n: 1 })).rejects.toThrow(/NOPERM/);
      const failed = queue.current;
      await allowInfo('recovering');
      await until(
        () =>
          queue.current.add('job', { n: 2 }).then(
            () => true,
            () => false,
          ),
        'an add on the set-up-again queue',
        10_000,
      );
      expect(queue.current).not.toBe(failed);
      expect(await queue.current.getJobCountByTypes('waiting')).toBe(1);
      expect(warnings.join('\n')).toMatch(/test queue: its setup on Redis failed \(.*NOPERM.*\); setting it up again/);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it('(why it is needed) a plain BullMQ Queue keeps its failed setup after Redis answers', async () => {
    const connection = await producerWithoutInfo('plain');
    const queue = new Queue('plain', { connection });
    queue.on('error', () => undefined);
    try {
      await expect(queue.add('job', { n: 1 })).rejects.toThrow(/NOPERM/);
      await allowInfo('plain');
      expect(await connection.info('server')).toContain('redis_version');
      await expect(queue.add('job', { n: 2 })).rejects.toThrow(/NOPERM/);
    } finally {
      connection.disconnect();
    }
  });

  it('stops setting up again once closed', async () => {
    const connection = await producerWithoutInfo('closed');
    let built = 0;
    const queue = new RecoveringQueue(() => {
      built += 1;
      const q = new Queue('closed', { connection });
      q.on('error', () => undefined);
      return q;
    }, 'test queue');
    try {
      await expect(queue.current.add('job', {})).rejects.toThrow(/NOPERM/);
      await queue.close().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 500));
      expect(built).toBe(1);
    } finally {
      // also when it fails: left open, the connection would retry the stopped redis-server for ever
      connection.disconnect();
    }
  });
});
