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
  if (!(await settledWithin(worker.close(true), FORCED_CLOSE_MS))) {
    logger.warn(`shutdown: ${worker.name} did not close (Redis unreachable); leaving it`);
    await stopTimersOf(worker);
  }
  await settledWithin(worker.disconnect(), 500);
}

/** The parts of a BullMQ 5 Worker its close stops, which a close stuck on an unreachable Redis never reaches. */
interface WorkerInternals {
  lockManager?: { close?: () => Promise<void> };
  blockingConnection?: { _client?: { disconnect?: () => void } };
}

/**
 * With Redis gone, BullMQ's close waits for the jobs and the blocking connection forever and never
 * reaches the lock manager: its lock-renewal timer, and the blocking client's reconnect back-off,
 * would keep the process alive. Stop both directly (they are not public: each is checked before use,
 * so a BullMQ without them is left as it is).
 */
async function stopTimersOf(worker: Worker): Promise<void> {
  const internals = worker as unknown as WorkerInternals;
  await settledWithin(internals.lockManager?.close?.() ?? Promise.resolve(), 500);
  internals.blockingConnection?._client?.disconnect?.();
}
