/**
 * Waits until a Redis connection can take commands. A connection made without an offline queue
 * (the producer's: a command fails at once instead of waiting while Redis is away) refuses every
 * command until it has connected, also in the first milliseconds after the process starts.
 */
import type { Redis } from 'ioredis';

export function redisReady(redis: Pick<Redis, 'status' | 'once' | 'off'>, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(() => {
      redis.off('ready', done);
      reject(new Error(`Redis not ready after ${timeoutMs} ms (connection ${redis.status})`));
    }, timeoutMs);
    redis.once('ready', done);
  });
}
