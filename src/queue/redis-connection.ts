/**
 * ioredis connections for the queue. Producers fail fast when Redis is down (no offline queue, a
 * short connect timeout) so a Slack handler can answer "queue unavailable"; workers block and wait
 * (`maxRetriesPerRequest: null`, as BullMQ requires). Both reconnect forever and never crash the
 * process on a connection error.
 */
import { Redis, type RedisOptions } from 'ioredis';

export type RedisRole = 'producer' | 'worker';

export interface ConnectionLogger {
  warn(message: string): void;
}

export function createRedisConnection(url: string, role: RedisRole, logger?: ConnectionLogger, extra: Partial<RedisOptions> = {}): Redis {
  const options: RedisOptions = {
    lazyConnect: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(200 * times, 2000),
    ...(role === 'producer' ? { enableOfflineQueue: false, maxRetriesPerRequest: 1 } : { maxRetriesPerRequest: null, enableOfflineQueue: true }),
  };
  const redis = new Redis(url, options);
  let lastWarn = 0;
  redis.on('error', (error: Error) => {
    // Connection errors repeat on every reconnect attempt: say it at most every 10 s.
    if (Date.now() - lastWarn > 10_000) {
      lastWarn = Date.now();
      logger?.warn(`redis (${role}): ${error.message.split('\n')[0]}`);
    }
  });
  return redis;
}
