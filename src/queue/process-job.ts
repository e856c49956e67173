/**
 * The cluster job worker's processor, a plain async function: finds the job's kind in the registry
 * (jobs/index.ts), validates its data against the kind's schema and runs the kind's processor under
 * the job's post scope (its posts keep one identity across runs: a run after a crash does not post
 * them again). An unknown kind or bad data is an UnrecoverableError (no retries). A job whose kind
 * names an asker tells them why when it gives up (final-failure.ts).
 */
import { UnrecoverableError } from 'bullmq';
import { withPostScope } from '../core/post-scope.js';
import type { Asker } from './command-failure.js';
import { afterFailedRun, type FinalFailureDeps } from './final-failure.js';
import { jobKindOf, type JobData, type JobDeps, type JobResult } from './jobs/index.js';
import type { JobKind, JobLike } from './jobs/job-kind.js';

export type { JobLike } from './jobs/job-kind.js';
export type { JobData, JobDeps, JobResult } from './jobs/index.js';

/** The job's data, checked against its kind's schema. */
export function parseJobData(data: unknown): JobData {
  const kind = jobKindOf((data as { kind?: unknown } | null)?.kind);
  if (!kind) throw new UnrecoverableError('JOB_DATA_INVALID: kind: not a job kind of this version');
  const parsed = kind.schema.safeParse(data);
  if (!parsed.success)
    throw new UnrecoverableError(
      `JOB_DATA_INVALID: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
    );
  return parsed.data;
}

export function processJob(job: JobLike, deps: JobDeps & FinalFailureDeps, signal?: AbortSignal): Promise<JobResult> {
  return withPostScope(job.id ?? '', async () => {
    const data = parseJobData(job.data);
    // the registry pairs each kind with its data: jobKindOf(data.kind) is the kind that parsed it
    const kind = jobKindOf(data.kind) as JobKind<string, JobData, JobDeps, JobResult>;
    try {
      return await kind.process(data, job, deps, signal);
    } catch (error) {
      throw await afterFailedRun(kind.asker?.(data), job, error, deps);
    }
  });
}

/** The asker of a job's data, when its kind names one and the data is valid. */
export function askerOf(data: unknown): Asker | undefined {
  try {
    const parsed = parseJobData(data);
    return (jobKindOf(parsed.kind) as JobKind<string, JobData, never, unknown>).asker?.(parsed);
  } catch {
    return undefined;
  }
}
