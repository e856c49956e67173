/** The Redis the test run uses (started by test/support/global-setup.mjs unless REDIS_URL was given), and key cleanup. */
import { Redis } from 'ioredis';

export function testRedisUrl(): string {
  const url = process.env.REDIS_URL;
  if (!url)
    throw new Error(
      'REDIS_URL is not set: jest.config.js runs test/support/global-setup.mjs, which starts a redis-server',
    );
  return url;
}

/** Deletes the keys matching `pattern`; a Redis that a test stopped is left alone. */
export async function deleteRedisKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(pattern);
    if (keys.length > 0) await redis.del(...keys);
  } catch {
    // nothing to clean
  } finally {
    redis.disconnect();
  }
}
