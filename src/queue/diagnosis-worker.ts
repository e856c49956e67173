/**
 * The consumer side: a BullMQ Worker running `processJob` with a configurable concurrency. Several
 * processes may run workers on one Redis; BullMQ's locks make each job run once. Jobs left in Redis
 * by a stopped worker (or kept across a Redis restart with AOF) are picked up when one starts.
 */
import { Worker } from 'bullmq';
import type { JobData } from './job-data.js';
import { processJob, type JobDeps, type JobResult } from './process-job.js';
import { createRedisConnection } from './redis-connection.js';

export interface DiagnosisWorkerOptions {
  redisUrl: string;
  name: string;
  prefix?: string;
  concurrency: number;
}

export function createDiagnosisWorker(options: DiagnosisWorkerOptions, deps: JobDeps): Worker<JobData, JobResult> {
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
  worker.on('failed', (job, error) => deps.warn?.(`job ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`));
  worker.on('closed', () => connection.disconnect());
  return worker;
}
