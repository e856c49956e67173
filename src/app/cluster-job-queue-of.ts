/**
 * The cluster job queue of a process, from its config (the queue settings and the Redis address) and
 * the key prefix of the cluster it serves: one place for `serve` and the multi-cluster web process.
 */
import type { AppConfig } from '../config.js';
import type { ConnectionLogger } from '../queue/redis-connection.js';
import { ClusterJobQueue } from '../queue/cluster-job-queue.js';

export function clusterJobQueueOf(
  config: Pick<AppConfig, 'redisUrl' | 'queue'>,
  prefix: string,
  logger: ConnectionLogger,
): ClusterJobQueue {
  return new ClusterJobQueue({
    redisUrl: config.redisUrl,
    name: config.queue.name,
    prefix,
    attempts: config.queue.attempts,
    backoffMs: config.queue.backoffMs,
    holdMs: config.queue.holdMs,
    logger,
  });
}
