/**
 * ioredis connections for the queue. Producers fail fast when Redis is down (no offline queue, a
 * short connect timeout) so a Slack handler can answer "queue unavailable"; workers block and wait
 * (`maxRetriesPerRequest: null`, as BullMQ requires). Both reconnect forever and never crash the
 * process on a connection error.
 *
 * The address (AppConfig.redisUrl) is one of:
 *   redis://[user:pass@]host:port[/db]           one server (rediss:// with TLS)
 *   redis-sentinel://[user:pass@]h:p[,h:p]/NAME  Redis Sentinel: the master NAME the sentinels point at (rediss-sentinel://)
 *   redis-cluster://[user:pass@]h:p[,h:p]        Redis Cluster: the seed nodes (rediss-cluster://)
 * A Redis Cluster client is typed as a Redis here: the commands the queue, the stores and BullMQ send
 * are the same on both (every key of one queue shares a hash tag, see queue-prefix.ts).
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';

export type RedisRole = 'producer' | 'worker';

export interface ConnectionLogger {
  warn(message: string): void;
}

export interface RedisAddress {
  mode: 'single' | 'sentinel' | 'cluster';
  tls: boolean;
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  /** The sentinel master's name. */
  name?: string;
}

/** Parses a sentinel or cluster address; null for a plain redis:// / rediss:// URL (ioredis reads those itself). */
export function parseRedisAddress(url: string): RedisAddress | null {
  const m = /^redis(s?)-(sentinel|cluster):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/]+)(?:\/(.*))?$/.exec(url);
  if (!m) return null;
  const [, s, mode, user, pass, hosts, name] = m;
  const nodes = (hosts ?? '').split(',').map((hp) => {
    const i = hp.lastIndexOf(':');
    return { host: hp.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(hp.slice(i + 1)) };
  });
  return {
    mode: mode as 'sentinel' | 'cluster',
    tls: s === 's',
    nodes,
    ...(user ? { username: decodeURIComponent(user) } : {}),
    ...(pass ? { password: decodeURIComponent(pass) } : {}),
    ...(name ? { name: decodeURIComponent(name) } : {}),
  };
}

/** The address with its password hidden, for logs. */
export function describeRedis(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

export function createRedisConnection(
  url: string,
  role: RedisRole,
  logger?: ConnectionLogger,
  extra: Partial<RedisOptions> = {},
): Redis {
  const options: RedisOptions = {
    lazyConnect: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(200 * times, 2000),
    ...(role === 'producer'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1 }
      : { maxRetriesPerRequest: null, enableOfflineQueue: true }),
    ...extra,
  };
  const redis = connect(url, options);
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

function connect(url: string, options: RedisOptions): Redis {
  const address = parseRedisAddress(url);
  if (!address) return new Redis(url, options);
  const auth = {
    ...(address.username ? { username: address.username } : {}),
    ...(address.password ? { password: address.password } : {}),
  };
  const tls = address.tls ? { tls: {} } : {};
  if (address.mode === 'sentinel') {
    return new Redis({
      ...options,
      ...auth,
      ...tls,
      sentinels: address.nodes,
      name: address.name ?? 'mymaster',
      // the sentinels themselves take the same credentials (an ACL user for them is the usual setup)
      ...(address.password ? { sentinelPassword: address.password } : {}),
      ...(address.username ? { sentinelUsername: address.username } : {}),
      ...(address.tls ? { sentinelTLS: {}, enableTLSForSentinelMode: true } : {}),
      // after a failover, ask the sentinels again instead of retrying the old master
      reconnectOnError: (error) => /READONLY/.test(error.message),
      failoverDetector: true,
    });
  }
  const cluster = new Cluster(address.nodes, {
    ...(options.enableAutoPipelining ? { enableAutoPipelining: true } : {}),
    enableOfflineQueue: options.enableOfflineQueue ?? true,
    clusterRetryStrategy: (times) => Math.min(200 * times, 2000),
    redisOptions: {
      ...auth,
      ...tls,
      connectTimeout: options.connectTimeout ?? 2000,
      maxRetriesPerRequest: options.maxRetriesPerRequest ?? null,
    },
  });
  return cluster as unknown as Redis;
}
