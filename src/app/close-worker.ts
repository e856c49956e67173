/** Graceful stop of a BullMQ worker: running jobs finish until the deadline, then are cancelled (BullMQ hands them to another worker). */
import type { Worker } from 'bullmq';
import type { Logger } from '../core/logger.js';

export async function closeWorker(worker: Worker, deadlineAt: number, logger: Logger): Promise<void> {
  const closing = worker.close();
  const left = deadlineAt - Date.now();
  const inTime = await Promise.race([closing.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), Math.max(0, left)).unref())]);
  if (inTime) return;
  logger.warn(`shutdown: jobs of ${worker.name} still running after the deadline; cancelling them (BullMQ retries them on another worker)`);
  worker.cancelAllJobs('isvc-doctor is shutting down');
  await Promise.race([closing, new Promise((r) => setTimeout(r, 2000).unref())]);
  await worker.close(true).catch(() => undefined);
}
