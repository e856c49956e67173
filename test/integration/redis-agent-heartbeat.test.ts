/**
 * Agents' heartbeats on the test Redis (src/clusters/agent-heartbeat.ts): live while they beat within
 * staleAfter, the newest beat is "since" once they go quiet (killed) or stop (gracefully, at once),
 * several agents of one cluster count together, and entries silent for a week are dropped.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { agentsKey, readAgentHealth, startHeartbeat } from '../../src/clusters/agent-heartbeat.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';

const prefix = `{hb-${randomUUID().slice(0, 8)}}:q`;
let redis: Redis;
beforeAll(() => {
  redis = new Redis(testRedisUrl());
});
afterAll(async () => {
  redis.disconnect();
  await deleteRedisKeys(testRedisUrl(), `${prefix}*`);
});

it('is live while an agent beats, names its last beat once it goes quiet or stops', async () => {
  let now = 1_000_000;
  expect(await readAgentHealth(redis, prefix, 20_000, now)).toEqual({
    live: false,
    lastSeenAt: null,
    version: null,
    agents: 0,
  });
  const a = startHeartbeat(redis, prefix, {
    identity: 'agent-a',
    version: '1.2.3',
    intervalMs: 60_000,
    now: () => now,
  });
  await a.ready;
  expect(await readAgentHealth(redis, prefix, 20_000, now + 5_000)).toEqual({
    live: true,
    lastSeenAt: now,
    version: '1.2.3',
    agents: 1,
  });
  // quiet (a killed agent): live until staleAfter, then only "since"
  expect((await readAgentHealth(redis, prefix, 20_000, now + 20_001)).live).toBe(false);
  expect((await readAgentHealth(redis, prefix, 20_000, now + 20_001)).lastSeenAt).toBe(now);
  // a second agent of the same cluster
  now += 30_000;
  const b = startHeartbeat(redis, prefix, {
    identity: 'agent-b',
    version: '1.2.4',
    intervalMs: 60_000,
    now: () => now,
  });
  await b.ready;
  expect(await readAgentHealth(redis, prefix, 20_000, now)).toEqual({
    live: true,
    lastSeenAt: now,
    version: '1.2.4',
    agents: 1,
  });
  // a graceful stop says so at once
  await b.stop();
  expect(await readAgentHealth(redis, prefix, 20_000, now)).toEqual({
    live: false,
    lastSeenAt: now,
    version: '1.2.4',
    agents: 0,
  });
  await a.stop();
  // a week later the entries are dropped
  expect((await readAgentHealth(redis, prefix, 20_000, now + 8 * 86_400_000)).lastSeenAt).toBeNull();
  expect(await redis.hlen(agentsKey(prefix))).toBe(0);
});
