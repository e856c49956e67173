/** A worker's jobs in the logs (start, end, failure), each line with the request id that queued the job. */
import type { Job, Worker } from 'bullmq';
import type { Logger } from '../core/logger.js';

function jobFields(job: Job | undefined): Record<string, unknown> {
  if (!job) return {};
  const d = (job.data ?? {}) as {
    kind?: string;
    requestId?: string;
    target?: { namespace?: string; name?: string };
    subscriber?: { channel?: string; threadTs?: string };
    channel?: string;
    proposalId?: string;
  };
  return {
    ...(d.requestId ? { requestId: d.requestId } : {}),
    jobId: job.id,
    kind: d.kind ?? job.name,
    ...(d.target ? { target: `${d.target.namespace}/${d.target.name}` } : {}),
    ...(d.subscriber
      ? { channel: d.subscriber.channel, threadTs: d.subscriber.threadTs }
      : d.channel
        ? { channel: d.channel }
        : {}),
    ...(d.proposalId ? { proposalId: d.proposalId } : {}),
    attempt: job.attemptsMade + 1,
  };
}

export function logJobs(worker: Worker, logger: Logger): void {
  worker.on('active', (job) => logger.info('job started', jobFields(job)));
  worker.on('completed', (job, result: unknown) =>
    logger.info('job done', {
      ...jobFields(job),
      result,
      ms: job.finishedOn && job.processedOn ? job.finishedOn - job.processedOn : undefined,
    }),
  );
  worker.on('failed', (job, error) =>
    logger.warn('job failed', { ...jobFields(job), error: error.message.split('\n')[0] }),
  );
}
