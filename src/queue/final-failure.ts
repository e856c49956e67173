/**
 * The worker's last word on a job that gives up: when a job whose kind names an asker (jobs/:
 * `asker`) fails its last attempt, stops at its deadline, or is refused as unrecoverable, the asker
 * is told why before the job is recorded as failed, so an outage of the Kubernetes API never ends
 * in silence. Told inside the job's run: a worker that dies while telling leaves the job active,
 * and the worker that takes it over tells again. A job failed for stalling too often (its workers
 * kept dying) never reaches a processor: the worker that fails it tells (cluster-job-worker.ts).
 */
import { UnrecoverableError } from 'bullmq';
import { errorCode, errorMessage } from '../core/error-message.js';
import type { Notify } from '../core/notify.js';
import { commandFailureOf, type Asker } from './command-failure.js';
import type { DiagnosisEvent } from './diagnosis-events.js';
import { JobTimeoutError } from './job-deadline.js';
import type { JobLike } from './jobs/job-kind.js';

export interface FinalFailureDeps {
  notify: Notify<DiagnosisEvent>;
  /** The cluster the worker reads (named in the message); absent: not named. */
  clusterName?: string;
  warn?(message: string): void;
}

/** No attempt follows this one: the last, a deadline (never run again), or bad input. */
export function isFinalAttempt(job: JobLike, error: unknown): boolean {
  return (
    job.attemptsMade + 1 >= (job.opts.attempts ?? 1) ||
    error instanceof UnrecoverableError ||
    error instanceof JobTimeoutError
  );
}

/** Tells the asker why their job gave up; a Slack failure here is logged (the job's failure stays recorded). */
export async function tellAsker(asker: Asker, error: unknown, attempts: number, deps: FinalFailureDeps): Promise<void> {
  const failure = commandFailureOf(error, {
    text: asker.text,
    attempts,
    ...(deps.clusterName ? { cluster: deps.clusterName } : {}),
  });
  await deps
    .notify({ kind: 'command-failed', asker, failure })
    .catch((e: unknown) =>
      deps.warn?.(`slack: could not tell ${asker.user} in ${asker.channel} why it failed: ${errorMessage(e)}`),
    );
}

/**
 * What a failed run throws on: a final failure is told to the asker and becomes unrecoverable (a
 * deadline is not tried again after the asker heard); an earlier one is thrown as it is, for BullMQ's retry.
 */
export async function afterFailedRun(
  asker: Asker | undefined,
  job: JobLike,
  error: unknown,
  deps: FinalFailureDeps,
): Promise<unknown> {
  if (!asker || !isFinalAttempt(job, error)) return error;
  await tellAsker(asker, error, job.attemptsMade + 1, deps);
  return error instanceof UnrecoverableError
    ? error
    : new UnrecoverableError(`${errorCode(error)}: ${errorMessage(error)}`);
}
