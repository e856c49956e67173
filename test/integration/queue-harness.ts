/** Shared set-up for the queue integration tests: a unique queue on the harness Redis, the fake Slack API, real WebClient. */
import { randomUUID } from 'node:crypto';
import type { TargetRef } from '../../src/core/target-ref.js';
import type { Report } from '../../src/findings/types.js';
import { slackDiagnosisNotifier } from '../../src/notify/slack-diagnosis-notifier.js';
import { ClusterJobQueue } from '../../src/queue/cluster-job-queue.js';
import { createClusterJobWorker } from '../../src/queue/cluster-job-worker.js';
import type { JobDeps } from '../../src/queue/process-job.js';
import { createSlackPoster, createSlackWebClient } from '../../src/slack/web-api-poster.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';

export interface QueueHarness {
  name: string;
  slack: FakeSlackApi;
  queue: ClusterJobQueue;
  deps: JobDeps;
  startWorker(concurrency?: number): ReturnType<typeof createClusterJobWorker>;
  close(): Promise<void>;
}

export async function startQueueHarness(
  diagnose: (target: TargetRef) => Promise<Report>,
  options: { redisUrl?: string; attempts?: number; backoffMs?: number } = {},
): Promise<QueueHarness> {
  const url = options.redisUrl ?? testRedisUrl();
  const name = `test-${randomUUID().slice(0, 8)}`;
  const slack = await startFakeSlackApi();
  const client = createSlackWebClient({ botToken: 'xoxb-test', apiUrl: slack.apiUrl, retries: 3 });
  const queue = new ClusterJobQueue({
    redisUrl: url,
    name,
    attempts: options.attempts ?? 3,
    backoffMs: options.backoffMs ?? 100,
    opTimeoutMs: 1500,
  });
  const deps: JobDeps = {
    diagnose,
    listStatus: async () => [],
    notify: slackDiagnosisNotifier(createSlackPoster(client)),
    store: queue.store,
    backoffMs: options.backoffMs ?? 100,
  };
  const workers: Array<ReturnType<typeof createClusterJobWorker>> = [];
  return {
    name,
    slack,
    queue,
    deps,
    startWorker: (concurrency = 2) => {
      const w = createClusterJobWorker({ redisUrl: url, name, concurrency }, deps);
      workers.push(w);
      return w;
    },
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
      await queue.queue.obliterate({ force: true }).catch(() => undefined);
      await deleteRedisKeys(url, `bull:${name}:*`);
      await queue.close();
      await slack.close();
    },
  };
}
