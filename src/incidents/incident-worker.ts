/**
 * The consumer of the incident jobs: a BullMQ Worker running `processIncidentJob`. Runs wherever
 * cluster job workers run (serve roles `all` and `worker`); BullMQ makes each job run once.
 */
import { dropLateConnectionErrors } from '../queue/late-connection-errors.js';
import { Worker } from 'bullmq';
import type { IncidentJob } from './incident-queue.js';
import { processIncidentJob, type IncidentJobDeps, type IncidentJobResult } from './process-incident-job.js';
import { createRedisConnection } from '../queue/redis-connection.js';

export interface IncidentWorkerOptions {
  redisUrl: string;
  name: string;
  prefix: string;
  concurrency: number;
  warn?(message: string): void;
}

export function createIncidentWorker(
  options: IncidentWorkerOptions,
  deps: IncidentJobDeps,
): Worker<IncidentJob, IncidentJobResult> {
  const connection = createRedisConnection(options.redisUrl, 'worker', { warn: (m) => options.warn?.(m) });
  const worker = new Worker<IncidentJob, IncidentJobResult>(
    options.name,
    (job, _token, signal) => processIncidentJob(job.data, deps, signal),
    {
      connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      lockDuration: 60_000,
      maxStalledCount: 2,
    },
  );
  worker.on('error', (error) => options.warn?.(`incident worker: ${error.message}`));
  dropLateConnectionErrors(worker);
  worker.on('failed', (job, error) =>
    options.warn?.(
      `incident job ${job?.name ?? '?'} ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`,
    ),
  );
  worker.on('closed', () => connection.disconnect());
  return worker;
}
