/**
 * The bot on a Redis Cluster of 3 masters started here on loopback ports (`redis-server
 * --cluster-enabled yes`, `redis-cli --cluster create`): `redis.cluster` / a redis-cluster://
 * address gives every queue a hash-tagged prefix (one slot each, BullMQ's scripts need it), and the
 * diagnose and approve flows pass end to end (fake Slack, the simulator, real Bolt).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Cluster } from 'ioredis';
import { postSignedClick, proposalIdOf, proposalMessages, writes } from '../e2e/remediation-harness.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from '../e2e/slack-harness.js';
import { startRedisCluster, type RedisClusterHandle } from '../support/redis-topologies.js';
import { postSignedCommand } from '../support/slack-signing.js';

const APPROVER = 'U0APPROVER';
let redis: RedisClusterHandle;
let h: BotHarness;

beforeAll(async () => {
  redis = await startRedisCluster(3);
  h = await startBotHarness({
    scenario: 'oom-exit-code-137',
    redisUrl: redis.url,
    file: { approvers: [APPROVER], remediation: { verifyTimeout: '1s', verifyPoll: '100ms' } },
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await redis?.stop();
});

describe('on Redis Cluster', () => {
  it("keeps all of a queue's keys under one hash tag", async () => {
    expect(h.bot.queue.queue.opts.prefix).toBe(`{${h.prefix}}`);
  });

  it('diagnoses: root message, report in the thread, a proposal', async () => {
    expect(
      (
        await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
          text: 'diagnose sklearn-iris -n default',
          channel_id: 'C0RC',
        })
      ).status,
    ).toBe(200);
    await h.slack.waitFor(() => proposalMessages(h.slack, 'C0RC').length > 0, 30_000);
    const replies = h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0RC' && c.body.thread_ts);
    expect(replies.some((c) => textOf(c.body).includes('OOM_KILLED'))).toBe(true);
  });

  it('applies an approved proposal once', async () => {
    const proposal = proposalMessages(h.slack, 'C0RC')[0]!;
    expect(
      await postSignedClick(h.eventsUrl, SIGNING_SECRET, {
        actionId: 'remediation.approve',
        value: proposalIdOf(proposal),
        user: APPROVER,
        channel: 'C0RC',
        messageTs: String(proposal.response!.ts),
      }),
    ).toBe(200);
    await h.slack.waitFor(
      () => writes(h.sim.requests, { verb: 'patch', resource: 'inferenceservices' }).length > 0,
      30_000,
    );
    expect(writes(h.sim.requests, { verb: 'patch', resource: 'inferenceservices' })).toHaveLength(1);
    expect(
      (h.sim.store.get('serving.kubeflow.org/v1alpha2', 'InferenceService', 'default', 'sklearn-iris')!.spec as any)
        .default.predictor.sklearn.resources.limits.memory,
    ).toBe('512Mi');
  });

  it('spreads nothing of one queue over several slots', async () => {
    const c = new Cluster(redis.nodes.map((n) => ({ host: '127.0.0.1', port: n.port })));
    await new Promise((resolve) => c.once('ready', resolve));
    try {
      const keys: string[] = [];
      for (const node of c.nodes('master')) keys.push(...(await node.keys(`*${h.prefix}*`)));
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((k) => k.startsWith(`{${h.prefix}}:`))).toBe(true);
    } finally {
      c.disconnect();
    }
  });
});
