/** The request inbox on real Redis: a request that arrives while the inbox' connection is still being made is written down. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RequestInbox } from '../../../src/bot/request-inbox.js';
import { deleteRedisKeys, testRedisUrl } from '../../support/test-redis.js';

const prefix = `inbox-${randomUUID().slice(0, 8)}`;
afterAll(() => deleteRedisKeys(testRedisUrl(), `${prefix}:*`));

it('records a request made right after the process starts, before its Redis connection is ready', async () => {
  const inbox = new RequestInbox({ redisUrl: testRedisUrl(), keyPrefix: prefix });
  const redis = new Redis(testRedisUrl());
  try {
    const id = randomUUID();
    // no wait: the first Slack request can come as soon as the server listens
    expect(await inbox.record({ id, body: { command: '/isvc' }, receivedAt: Date.now() })).toBe('new');
    expect(await redis.hexists(`${prefix}:inbox`, id)).toBe(1);
  } finally {
    await inbox.close();
    redis.disconnect();
  }
});
