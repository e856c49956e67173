/** The cluster job queue on real Redis, its diagnose and status kinds: threads answered, duplicates joined, retries, bad input, restarts. */
import { Queue, UnrecoverableError } from 'bullmq';
import type { TargetRef } from '../../src/core/target-ref.js';
import { ClusterUnreachableError } from '../../src/kube/errors.js';
import { ClusterJobQueue } from '../../src/queue/cluster-job-queue.js';
import { QueueUnavailableError } from '../../src/queue/queue-errors.js';
import { requestDiagnosis } from '../../src/queue/request-diagnosis.js';
import { diagnosisThread } from '../support/diagnosis-thread.js';
import { startRedisServer } from '../support/redis-server.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { until } from '../support/until.js';
import { storageUriNotFoundReport } from '../unit/render/report-fixtures.js';
import { startQueueHarness, type QueueHarness } from './queue-harness.js';

afterAll(removeTempDirs);

const target: TargetRef = { namespace: 'default', name: 'sklearn-iris' };
const blocksText = (body: Record<string, any>) => `${body.text} ${JSON.stringify(body.blocks)}`;

let h: QueueHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('cluster job queue', () => {
  it('posts the report in the root message thread, root cause first, then the verdict', async () => {
    h = await startQueueHarness(async () => storageUriNotFoundReport());
    h.startWorker();
    const outcome = await requestDiagnosis(
      { queue: h.queue, notify: h.deps.notify },
      { target, channel: 'C1', user: 'U1' },
    );
    expect(outcome.kind).toBe('queued');
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'chat.update' && String(c.body.text).startsWith('❌')),
    );
    const posts = h.slack.callsTo('chat.postMessage');
    expect(posts[0]!.body.channel).toBe('C1');
    const { rootTs, replies } = diagnosisThread(posts);
    expect(blocksText(replies[0]!.body)).toContain('STORAGE_URI_NOT_FOUND');
    expect(blocksText(replies[0]!.body)).toContain('RuntimeError: Failed to fetch model.');
    expect(blocksText(replies[1]!.body)).toContain('STORAGE_INIT_FAILED');
    const updates = h.slack.callsTo('chat.update');
    expect(updates.at(-1)!.body.ts).toBe(rootTs);
    expect(updates.at(-1)!.body.text).toContain('STORAGE_URI_NOT_FOUND');
    for (const c of h.slack.calls) expect(c.auth).toBe('Bearer xoxb-test');
  });

  it('runs one job for duplicate requests and answers every thread', async () => {
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h = await startQueueHarness(async () => {
      runs += 1;
      await gate;
      return storageUriNotFoundReport();
    });
    const deps = { queue: h.queue, notify: h.deps.notify };
    const [a, b] = await Promise.all([
      requestDiagnosis(deps, { target, channel: 'C1', user: 'U1' }),
      requestDiagnosis(deps, { target, channel: 'C1', user: 'U2' }),
    ]);
    const c = await requestDiagnosis(deps, { target, channel: 'C1', user: 'U3' });
    const d = await requestDiagnosis(deps, { target, channel: 'C2', user: 'U4' });
    expect([a.kind, b.kind].sort()).toEqual(['joined', 'queued']);
    expect(c.kind).toBe('joined');
    expect(d.kind).toBe('joined');
    expect(new Set([a.jobId, b.jobId, c.jobId, d.jobId]).size).toBe(1);
    expect(await h.queue.queue.getJobCountByTypes('waiting', 'active', 'delayed', 'completed')).toBe(1);
    h.startWorker();
    release();
    await h.slack.waitFor(
      (calls) => calls.filter((x) => x.method === 'chat.update' && String(x.body.text).startsWith('❌')).length >= 2,
    );
    expect(runs).toBe(1);
    const firstReplies = h.slack
      .callsTo('chat.postMessage')
      .filter((p) => p.body.thread_ts && blocksText(p.body).includes('Root cause'));
    expect(new Set(firstReplies.map((p) => `${p.body.channel}/${p.body.thread_ts}`)).size).toBe(2);
    expect(
      h.slack.callsTo('chat.postMessage').filter((p) => p.body.text === 'Diagnosing default/sklearn-iris…'),
    ).toHaveLength(2);
    expect(firstReplies.some((p) => p.body.channel === 'C2')).toBe(true);
    expect(
      h.slack
        .callsTo('chat.postMessage')
        .some((p) => String(p.body.text).includes('<@U3> asked for default/sklearn-iris too')),
    ).toBe(true);
    // After it is done, a new request starts a new diagnosis.
    const e = await requestDiagnosis(deps, { target, channel: 'C1', user: 'U5' });
    expect(e.kind).toBe('queued');
    expect(e.jobId).not.toBe(a.jobId);
  });

  it('retries ClusterUnreachableError with backoff, saying so in the root message', async () => {
    let calls = 0;
    h = await startQueueHarness(
      async () => {
        calls += 1;
        if (calls < 3)
          throw new ClusterUnreachableError('cannot reach the Kubernetes API (get inferenceservices): ECONNREFUSED');
        return storageUriNotFoundReport();
      },
      { attempts: 4, backoffMs: 50 },
    );
    h.startWorker();
    await requestDiagnosis({ queue: h.queue, notify: h.deps.notify }, { target, channel: 'C1', user: 'U1' });
    await h.slack.waitFor((c) => c.some((x) => x.method === 'chat.update' && String(x.body.text).startsWith('❌')));
    expect(calls).toBe(3);
    expect(h.slack.callsTo('chat.update').some((u) => JSON.stringify(u.body.blocks).includes('retrying in'))).toBe(
      true,
    );
  });

  it('after the last attempt tells the thread the cluster could not be reached', async () => {
    h = await startQueueHarness(
      async () => {
        throw new ClusterUnreachableError(
          'the Kubernetes API answered 503 to get inferenceservices in default: unavailable',
          503,
        );
      },
      { attempts: 2, backoffMs: 20 },
    );
    h.startWorker();
    await requestDiagnosis({ queue: h.queue, notify: h.deps.notify }, { target, channel: 'C1', user: 'U1' });
    await h.slack.waitFor((c) =>
      c.some((x) => x.method === 'chat.postMessage' && String(x.body.text).startsWith('CLUSTER_UNREACHABLE')),
    );
    const msg = h.slack.callsTo('chat.postMessage').find((p) => String(p.body.text).startsWith('CLUSTER_UNREACHABLE'))!;
    expect(JSON.stringify(msg.body.blocks)).toContain('none of the checks could run');
    expect(msg.body.thread_ts).toBeDefined();
  });

  it('fails bad job data without retries', async () => {
    h = await startQueueHarness(async () => storageUriNotFoundReport(), { attempts: 5 });
    const worker = h.startWorker();
    const failed = new Promise<{ attemptsMade: number; reason: string }>((resolve) =>
      worker.on('failed', (job, error) => resolve({ attemptsMade: job?.attemptsMade ?? -1, reason: error.message })),
    );
    await h.queue.queue.add('diagnose', {
      kind: 'diagnose',
      target: { namespace: 'default', name: 'Bad_Name' },
      subscriber: { channel: 'C', threadTs: '1', rootTs: '1', user: 'U' },
      requestedAt: '',
    } as never);
    const f = await failed;
    expect(f.attemptsMade).toBe(1);
    expect(f.reason).toMatch(/^JOB_DATA_INVALID: target.name/);
    expect(new UnrecoverableError('x')).toBeInstanceOf(Error);
  });

  it('retries Slack 429s honouring Retry-After', async () => {
    h = await startQueueHarness(async () => storageUriNotFoundReport());
    h.startWorker();
    await requestDiagnosis({ queue: h.queue, notify: h.deps.notify }, { target, channel: 'C1', user: 'U1' });
    h.slack.rateLimitNext(2, 1, 'chat.postMessage');
    const started = Date.now();
    await h.slack.waitFor(
      (c) => c.some((x) => x.method === 'chat.update' && String(x.body.text).startsWith('❌')),
      20_000,
    );
    const limited = h.slack.calls.filter((c) => c.status === 429);
    expect(limited).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(h.slack.callsTo('chat.postMessage').filter((p) => p.body.thread_ts).length).toBeGreaterThanOrEqual(2);
  });

  it('keeps a job queued while no worker runs and processes it when one starts', async () => {
    h = await startQueueHarness(async () => storageUriNotFoundReport());
    await requestDiagnosis({ queue: h.queue, notify: h.deps.notify }, { target, channel: 'C1', user: 'U1' });
    // no worker yet (or the last one stopped): the job waits in Redis
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await h.queue.queue.getJobCountByTypes('waiting', 'active')).toBe(1);
    h.startWorker();
    await h.slack.waitFor((c) => c.some((x) => x.method === 'chat.update' && String(x.body.text).startsWith('❌')));
  });

  it('runs the jobs an earlier version queued under the same queue name (job names, ids and data unchanged)', async () => {
    h = await startQueueHarness(async () => storageUriNotFoundReport());
    // what the version before the job kind registry added: BullMQ job name = kind, its own ids
    const raw = new Queue(h.name, { connection: h.queue.connection, prefix: 'bull' });
    await raw.add(
      'diagnose',
      {
        kind: 'diagnose',
        target,
        subscriber: { channel: 'C1', threadTs: '5.5', rootTs: '5.5', user: 'U1' },
        requestedAt: new Date().toISOString(),
        requestId: 'r-0123456789ab',
      },
      {
        jobId: 'diagnose__default__sklearn-iris__r-0123456789ab',
        deduplication: { id: 'diagnose__default__sklearn-iris' },
      },
    );
    await raw.add('status', { kind: 'status', namespace: 'default', channel: 'C2', user: 'U1' }, { attempts: 2 });
    await raw.close();
    h.startWorker();
    await h.slack.waitFor(
      (c) =>
        c.some((x) => x.method === 'chat.update' && x.body.ts === '5.5' && String(x.body.text).startsWith('❌')) &&
        c.some((x) => x.method === 'chat.postMessage' && x.body.channel === 'C2'),
    );
    // a post reaches Slack before its job is marked completed: wait for both jobs to finish
    await until(
      async () => (await h?.queue.queue.getJobCountByTypes('waiting', 'active', 'delayed')) === 0,
      'both queued jobs to complete',
    );
    // the same request added again by this version is the same job: nothing new runs
    const again = await h.queue.add({
      kind: 'diagnose',
      target,
      subscriber: { channel: 'C1', threadTs: '5.5', rootTs: '5.5', user: 'U1' },
      requestedAt: new Date().toISOString(),
      requestId: 'r-0123456789ab',
    });
    expect(again).toEqual({ jobId: 'diagnose__default__sklearn-iris__r-0123456789ab', created: true });
    expect(await h.queue.queue.getJobCountByTypes('waiting', 'active', 'delayed')).toBe(0);
  });

  it('keeps a queued job across a Redis restart (AOF)', async () => {
    const dir = tempDir('isvc-aof-');
    let redis = await startRedisServer({ dir, appendOnly: true });
    const url = redis.url;
    h = await startQueueHarness(async () => storageUriNotFoundReport(), { redisUrl: url });
    await requestDiagnosis({ queue: h.queue, notify: h.deps.notify }, { target, channel: 'C1', user: 'U1' });
    await redis.stop();
    redis = await startRedisServer({ dir, appendOnly: true, port: redis.port });
    try {
      h.startWorker();
      await h.slack.waitFor(
        (c) => c.some((x) => x.method === 'chat.update' && String(x.body.text).startsWith('❌')),
        20_000,
      );
    } finally {
      await h.close();
      h = undefined;
      await redis.stop();
    }
  });

  it('answers QueueUnavailableError quickly when Redis is down', async () => {
    const queue = new ClusterJobQueue({
      redisUrl: 'redis://127.0.0.1:1',
      name: 'down',
      attempts: 1,
      backoffMs: 10,
      opTimeoutMs: 500,
    });
    // without opTimeoutMs the call would wait for Redis forever (the test's timeout would fail it); no wall-clock bound
    await expect(queue.running(target)).rejects.toBeInstanceOf(QueueUnavailableError);
    await queue.close();
  });
});
