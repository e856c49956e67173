/** Graceful stop of a BullMQ worker: running jobs finish until the deadline, then are cancelled (BullMQ hands them to another worker). */
import type { Worker } from 'bullmq';
import { settledWithin } from '../core/bounded.js';
import type { Logger } from '../core/logger.js';

/** How long the last, forced close may take (Redis gone: it never completes). */
const FORCED_CLOSE_MS = 2000;

export async function closeWorker(worker: Worker, deadlineAt: number, logger: Logger): Promise<void> {
  const closing = worker.close();
  const left = deadlineAt - Date.now();
  if (await settledWithin(closing, left)) return;
  logger.warn(
    `shutdown: jobs of ${worker.name} still running after the deadline (or Redis does not answer); cancelling them (BullMQ retries them on another worker)`,
  );
  worker.cancelAllJobs('isvc-doctor is shutting down');
  if (await settledWithin(closing, 2000)) return;
  // Redis is gone: BullMQ's close waits for it forever; give up on it after a moment
  if (!(await settledWithin(worker.close(true), FORCED_CLOSE_MS)))
    logger.warn(`shutdown: ${worker.name} did not close (Redis unreachable); leaving it`);
  await settledWithin(worker.disconnect(), 500);
}
