/**
 * The consumer side of the cluster job queue: a BullMQ Worker running `processJob` (each kind through
 * its processor in jobs/) with a configurable concurrency. Several processes may run workers on one
 * Redis; BullMQ's locks make each job run once. Jobs left in Redis by a stopped worker (or kept
 * across a Redis restart with AOF, or queued by an earlier version under the same queue name) are
 * picked up when one starts. A job whose workers kept dying (failed for stalling, never reaching a
 * processor) is told to its asker here, as a processor tells a last failed attempt (final-failure.ts):
 * by the worker that fails it, and, in case that worker died before telling, by every worker that
 * starts within the hour after (the once-poster posts each job's notice once).
 */
import { dropLateConnectionErrors } from './late-connection-errors.js';
import { Queue, Worker, type Job } from 'bullmq';
import { CodedError } from '../core/coded-error.js';
import { withPostScope } from '../core/post-scope.js';
import { tellAsker, type FinalFailureDeps } from './final-failure.js';
import { askerOf, processJob, type JobData, type JobDeps, type JobResult } from './process-job.js';
import { createRedisConnection } from './redis-connection.js';

export interface ClusterJobWorkerOptions {
  redisUrl: string;
  name: string;
  prefix?: string;
  concurrency: number;
}

/** BullMQ's reason for a job failed without running: its workers died while it ran, more than maxStalledCount times. */
const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/** How far back a starting worker looks for stalled-out jobs whose asker may not have been told. */
const STALLED_OUT_LOOKBACK_MS = 60 * 60_000;
/** How many of the newest failed jobs it looks at. */
const STALLED_OUT_SCAN = 200;

export function createClusterJobWorker(
  options: ClusterJobWorkerOptions,
  deps: JobDeps & FinalFailureDeps,
): Worker<JobData, JobResult> {
  const connection = createRedisConnection(options.redisUrl, 'worker', { warn: (m) => deps.warn?.(m) });
  const worker = new Worker<JobData, JobResult>(options.name, (job, _token, signal) => processJob(job, deps, signal), {
    connection,
    prefix: options.prefix ?? 'bull',
    concurrency: options.concurrency,
    // A running job's lock is renewed every lockDuration / 2; a job whose worker died (SIGKILL, a
    // lost node) is seen stalled within lockDuration + stalledInterval and handed to another worker.
    lockDuration: 15_000,
    stalledInterval: 5_000,
    maxStalledCount: 2,
  });
  worker.on('error', (error) => deps.warn?.(`worker: ${error.message}`));
  dropLateConnectionErrors(worker);
  worker.on('failed', (job, error) => {
    deps.warn?.(`job ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`);
    if (job && error.message === STALLED_TOO_OFTEN) void tellStalledOut(job, deps);
  });
  worker.on('closed', () => connection.disconnect());
  void tellRecentStalledOuts(options, connection, deps);
  return worker;
}

/** Tells a stalled-out job's asker (in the job's post scope: told once, whoever tells). */
function tellStalledOut(job: Job<JobData, JobResult>, deps: FinalFailureDeps): Promise<void> {
  const asker = askerOf(job.data);
  if (!asker) return Promise.resolve();
  return withPostScope(job.id ?? '', () =>
    tellAsker(
      asker,
      new CodedError('JOB_STALLED', 'the workers running it kept stopping'),
      job.attemptsStarted || 1,
      deps,
    ),
  );
}

/** The stalled-out jobs of the last hour, told again in case the worker that failed them died before telling. */
async function tellRecentStalledOuts(
  options: ClusterJobWorkerOptions,
  connection: ReturnType<typeof createRedisConnection>,
  deps: FinalFailureDeps,
): Promise<void> {
  const queue = new Queue<JobData, JobResult>(options.name, { connection, prefix: options.prefix ?? 'bull' });
  queue.on('error', () => undefined);
  dropLateConnectionErrors(queue);
  try {
    const failed = await queue.getJobs(['failed'], 0, STALLED_OUT_SCAN - 1);
    const since = Date.now() - STALLED_OUT_LOOKBACK_MS;
    for (const job of failed)
      if (job && job.failedReason === STALLED_TOO_OFTEN && (job.finishedOn ?? 0) >= since)
        await tellStalledOut(job as Job<JobData, JobResult>, deps);
  } catch (error) {
    deps.warn?.(`worker: could not look for stalled-out jobs to tell: ${(error as Error).message}`);
  } finally {
    // a Queue on the worker's connection leaves it open when it closes
    await queue.close().catch(() => undefined);
  }
}
