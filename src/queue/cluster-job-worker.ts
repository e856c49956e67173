/**
 * The consumer side of the cluster job queue: a BullMQ Worker running `processJob` (each kind through
 * its processor in jobs/) with a configurable concurrency. Several processes may run workers on one
 * Redis; BullMQ's locks make each job run once. Jobs left in Redis by a stopped worker (or kept
 * across a Redis restart with AOF, or queued by an earlier version under the same queue name) are
 * picked up when one starts. A job whose workers kept dying (failed for stalling, never reaching a
 * processor) is told to its asker here, as a processor tells a last failed attempt (final-failure.ts).
 */
import { Worker } from 'bullmq';
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
  worker.on('failed', (job, error) => {
    deps.warn?.(`job ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`);
    const asker = job && error.message === STALLED_TOO_OFTEN ? askerOf(job.data) : undefined;
    if (job && asker)
      void withPostScope(job.id ?? '', () =>
        tellAsker(
          asker,
          new CodedError('JOB_STALLED', 'the workers running it kept stopping'),
          job.attemptsStarted || 1,
          deps,
        ),
      );
  });
  worker.on('closed', () => connection.disconnect());
  return worker;
}
