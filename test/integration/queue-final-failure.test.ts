/**
 * A command's job that gives up tells its asker, on real Redis and across worker restarts: the
 * status job's first attempt fails on one worker, that worker stops, and the worker started after
 * it runs the last attempt and tells the asker why (once); a job BullMQ fails for stalling too often
 * (its workers kept dying: it never reaches a processor) is told too.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { ClusterUnreachableError } from '../../src/kube/errors.js';
import { testRedisUrl } from '../support/test-redis.js';
import { until } from '../support/until.js';
import { startQueueHarness, type QueueHarness } from './queue-harness.js';

let h: QueueHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ephemeralsTo = (hh: QueueHarness, user: string) =>
  hh.slack.callsTo('chat.postEphemeral').filter((c) => c.body.user === user);
const textOf = (body: Record<string, unknown>) => `${String(body.text)} ${JSON.stringify(body.blocks)}`;

describe('a command job that gives up', () => {
  it('is told by the worker that runs its last attempt, after the first one stopped', async () => {
    h = await startQueueHarness(
      async () => {
        throw new Error('not used');
      },
      { backoffMs: 1500 },
    );
    let attempts = 0;
    h.deps.listStatus = async () => {
      attempts += 1;
      throw new ClusterUnreachableError(
        'cannot list inferenceservices in kserve-test: connect ECONNREFUSED 127.0.0.1:1',
      );
    };
    const first = h.startWorker();
    const { jobId } = await h.queue.add({
      kind: 'status',
      namespace: 'kserve-test',
      channel: 'C1',
      user: 'U0ASKER',
      requestId: 'req-final-1',
    });
    await until(() => attempts === 1, 'the first attempt', 10_000);
    await first.close();
    // nothing told yet: the first attempt was not the last
    expect(ephemeralsTo(h, 'U0ASKER')).toHaveLength(0);
    h.startWorker();
    await h.slack.waitFor(() => ephemeralsTo(h!, 'U0ASKER').length > 0, 15_000);
    await until(async () => (await h!.queue.queue.getJobState(jobId)) === 'failed', 'the job recorded failed', 10_000);
    const told = ephemeralsTo(h, 'U0ASKER');
    expect(told).toHaveLength(1);
    expect(told[0]!.body.channel).toBe('C1');
    expect(textOf(told[0]!.body)).toContain('/isvc status -n kserve-test');
    expect(textOf(told[0]!.body)).toContain('refused the connection');
    expect(textOf(told[0]!.body)).toContain('2 attempts');
    expect(textOf(told[0]!.body)).not.toContain('127.0.0.1');
    expect(attempts).toBe(2);
  });

  it('is told when BullMQ fails it for stalling too often (its workers kept dying)', async () => {
    h = await startQueueHarness(async () => {
      throw new Error('not used');
    });
    let ran = 0;
    h.deps.listStatus = async () => {
      ran += 1;
      return [];
    };
    const { jobId } = await h.queue.add({
      kind: 'status',
      namespace: 'kserve-test',
      channel: 'C2',
      user: 'U0STALL',
      requestId: 'req-final-2',
    });
    // what BullMQ's stalled-job check writes on a job past maxStalledCount; the next worker fails it unrun
    const redis = new Redis(testRedisUrl());
    try {
      await redis.hset(`bull:${h.name}:${jobId}`, 'defa', 'job stalled more than allowable limit');
    } finally {
      redis.disconnect();
    }
    h.startWorker();
    await h.slack.waitFor(() => ephemeralsTo(h!, 'U0STALL').length > 0, 15_000);
    expect(ran).toBe(0);
    expect(textOf(ephemeralsTo(h, 'U0STALL')[0]!.body)).toContain('JOB_STALLED');
  });

  it('is told by a worker started later when the worker that failed it for stalling died before telling', async () => {
    h = await startQueueHarness(async () => {
      throw new Error('not used');
    });
    const { jobId } = await h.queue.add({
      kind: 'status',
      namespace: 'kserve-test',
      channel: 'C3',
      user: 'U0LOST',
      requestId: 'req-final-3',
    });
    const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
    let bare: Worker | undefined;
    try {
      await redis.hset(`bull:${h.name}:${jobId}`, 'defa', 'job stalled more than allowable limit');
      // a bare BullMQ worker fails it for stalling and tells no one: the worker that dies between the two
      bare = new Worker(h.name, async () => undefined, { connection: redis, prefix: 'bull' });
      bare.on('error', () => undefined);
      await until(async () => (await h!.queue.queue.getJobState(jobId)) === 'failed', 'the job failed unrun', 15_000);
    } finally {
      // also when it fails: the worker's connections would retry Redis for ever once the run stops it
      await bare?.close();
      redis.disconnect();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(ephemeralsTo(h, 'U0LOST')).toHaveLength(0);
    h.startWorker();
    await h.slack.waitFor(() => ephemeralsTo(h!, 'U0LOST').length > 0, 15_000);
    expect(textOf(ephemeralsTo(h, 'U0LOST')[0]!.body)).toContain('JOB_STALLED');
  });
});
