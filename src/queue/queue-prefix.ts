/**
 * BullMQ key prefixes. Today's single-cluster install keeps its prefix ("bull", or the one a test
 * gives). A cluster's queues (multi-cluster) and every queue on Redis Cluster get a hash-tagged
 * prefix, `{bull-prod-eu}`: Redis Cluster places keys by the part in braces, so every key of a
 * cluster's queues, proposals, incidents and heartbeat lives in one slot (BullMQ's Lua scripts and
 * the stores' MULTI touch several keys at once), and different clusters spread over the nodes.
 */

/** The prefix of one cluster's keys (null: the single-cluster install). */
export function clusterQueuePrefix(base: string, cluster: string | null, redisCluster = false): string {
  const bare = base.replace(/^\{(.*)\}$/, '$1');
  if (cluster !== null) return `{${bare}-${cluster}}`;
  return redisCluster ? `{${bare}}` : base;
}

/** Whether a Redis address is a Redis Cluster (its keys then need hash-tagged prefixes). */
export function isRedisCluster(redisUrl: string): boolean {
  return /^rediss?-cluster:\/\//.test(redisUrl);
}
