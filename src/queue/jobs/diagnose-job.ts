/**
 * `diagnose`: diagnose one InferenceService and answer every thread waiting on it. One job per
 * InferenceService at a time (a deduplication id per namespace/name; a second request joins the
 * running job's threads, see subscriber-store.ts); the job id is the request's, so a request run
 * again after a crash adds nothing. ClusterUnreachableError is rethrown so BullMQ retries with
 * backoff (the root message says so); after the last attempt the threads get CLUSTER_UNREACHABLE.
 */
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { errorCode, errorMessage } from '../../core/error-message.js';
import type { Notify } from '../../core/notify.js';
import type { TargetRef } from '../../core/target-ref.js';
import type { Report } from '../../findings/types.js';
import { ClusterUnreachableError } from '../../kube/errors.js';
import type { DiagnosisEvent, DiagnosisFailure, Progress } from '../diagnosis-events.js';
import {
  diagnosisDedupId,
  newDiagnosisJobId,
  requestIdSchema,
  subscriberSchema,
  targetSchema,
  type Subscriber,
} from '../job-data.js';
import { JobTimeoutError, underJobDeadline } from '../job-deadline.js';
import { publicReason } from '../public-reason.js';
import type { SubscriberStore } from '../subscriber-store.js';
import { jobKind, type JobLike } from './job-kind.js';

export const diagnoseJobSchema = z.object({
  kind: z.literal('diagnose'),
  target: targetSchema,
  subscriber: subscriberSchema,
  requestedAt: z.string(),
  requestId: requestIdSchema,
});
export type DiagnoseJobData = z.infer<typeof diagnoseJobSchema>;

export type DiagnosisOutcome = 'reported' | 'cluster-unreachable' | 'failed';
export type DiagnoseResult = { outcome: DiagnosisOutcome; rootCause: string | null; threads: number };

export interface DiagnoseDeps {
  diagnose(target: TargetRef, signal?: AbortSignal): Promise<Report>;
  /** Where the jobs' outcomes go (the Slack notifier renders and posts them). */
  notify: Notify<DiagnosisEvent>;
  store: SubscriberStore;
  /** The queue's backoff base, to say when the next attempt comes. */
  backoffMs: number;
  /** The deadline of one diagnosis or status job (diagnosis.jobTimeout); none when absent. */
  jobTimeoutMs?: number;
  onDiagnosis?(outcome: DiagnosisOutcome, report: Report | null, seconds: number): void;
  warn?(message: string): void;
  /** After the report is posted: offer remediations in each thread. */
  afterReport?(report: Report, threads: Subscriber[]): Promise<unknown>;
  /** Records that a thread's root shows this InferenceService's verdict (ClusterJobQueue.rememberVerdictRoot). */
  rememberVerdictRoot?(channel: string, rootTs: string, target: TargetRef): Promise<void>;
}

/**
 * A name followed out of its default namespace: the root messages that show its verdict were
 * remembered for the name as asked; they show the followed one's now, so a Re-diagnose of that one
 * (its button names the namespace it was found in) brings them up to date too.
 */
async function rememberFollowedRoots(deps: DiagnoseDeps, subs: Subscriber[], target: TargetRef): Promise<void> {
  if (!deps.rememberVerdictRoot) return;
  for (const s of subs) {
    const verdict = s.verdictTs ?? (s.threadTs === s.rootTs ? s.rootTs : undefined);
    if (verdict)
      await deps
        .rememberVerdictRoot(s.channel, verdict, target)
        .catch((e: unknown) => deps.warn?.(`remember verdict root: ${errorMessage(e)}`));
  }
}

/** Distinct threads, the first requester's first. */
function threads(first: Subscriber, joined: Subscriber[]): Subscriber[] {
  const seen = new Set<string>();
  return [first, ...joined].filter((s) => {
    const key = `${s.channel}/${s.threadTs}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function failed(
  job: JobLike,
  data: DiagnoseJobData,
  deps: DiagnoseDeps,
  error: unknown,
  started: number,
): Promise<DiagnoseResult> {
  const attempts = job.opts.attempts ?? 1;
  const subs = threads(data.subscriber, await deps.store.close(job.id ?? '', diagnosisDedupId(data.target)));
  const unreachable = error instanceof ClusterUnreachableError;
  const failure: DiagnosisFailure = unreachable
    ? { kind: 'cluster-unreachable', reason: publicReason(error.message), attempts }
    : error instanceof JobTimeoutError
      ? { kind: 'timed-out', seconds: Math.round(error.ms / 1000) }
      : { kind: 'failed', code: errorCode(error) };
  await Promise.all(
    subs.map((subscriber) => deps.notify({ kind: 'diagnosis-failed', target: data.target, subscriber, failure })),
  );
  deps.onDiagnosis?.(unreachable ? 'cluster-unreachable' : 'failed', null, (Date.now() - started) / 1000);
  if (unreachable) return { outcome: 'cluster-unreachable', rootCause: 'CLUSTER_UNREACHABLE', threads: subs.length };
  if (error instanceof JobTimeoutError)
    return { outcome: 'failed', rootCause: 'DIAGNOSIS_TIMEOUT', threads: subs.length };
  throw error;
}

/** Each thread's posts of one kind; a thread Slack still refuses is logged (the poster already retried). */
function postEach(
  deps: DiagnoseDeps,
  subs: Subscriber[],
  kind: 'diagnosis-reported' | 'diagnosis-details',
  report: Report,
) {
  const what = kind === 'diagnosis-reported' ? 'report' : 'details';
  return Promise.all(
    subs.map((subscriber) =>
      deps
        .notify({ kind, report, subscriber })
        .catch((e: unknown) =>
          deps.warn?.(
            `slack: the ${what} for ${subscriber.channel}/${subscriber.threadTs} could not be posted: ${errorMessage(e)}`,
          ),
        ),
    ),
  );
}

async function processDiagnosis(
  data: DiagnoseJobData,
  job: JobLike,
  deps: DiagnoseDeps,
  signal?: AbortSignal,
): Promise<DiagnoseResult> {
  const attempt = job.attemptsMade + 1;
  const attempts = job.opts.attempts ?? 1;
  const root = data.subscriber;
  const started = Date.now();
  const quietly = (p: Promise<unknown>) => p.catch((e: unknown) => deps.warn?.(`slack: ${errorMessage(e)}`));
  const progress = (p: Progress) =>
    quietly(deps.notify({ kind: 'diagnosis-progress', target: data.target, subscriber: root, progress: p }));
  // the root message says "running" while the diagnosis runs: the diagnosis does not wait for Slack,
  // and every later post or update of this root waits for it, so it never lands after them
  const running = progress({ phase: 'running', attempt });
  let report: Report;
  try {
    const what = `the diagnosis of ${data.target.namespace}/${data.target.name}`;
    report = await underJobDeadline(deps.jobTimeoutMs, what, signal, (s) => deps.diagnose(data.target, s));
  } catch (error) {
    await running;
    // a job stopped at its deadline is not tried again: the thread hears now, not after every attempt's deadline
    const last = attempt >= attempts || error instanceof JobTimeoutError;
    if (error instanceof ClusterUnreachableError && !last) {
      const delayMs = deps.backoffMs * 2 ** (attempt - 1);
      // the root message is the channel's: the API server's address stays in the bot's log
      await progress({ phase: 'retrying', attempt, delayMs, reason: publicReason(error.message) });
      throw error;
    }
    if (!last && !(error instanceof UnrecoverableError)) throw error;
    return failed(job, data, deps, error, started);
  }
  const subs = threads(root, await deps.store.close(job.id ?? '', diagnosisDedupId(data.target)));
  await running;
  // a thread Slack refuses is not a job retry that would diagnose again and post the other threads' answers twice
  await postEach(deps, subs, 'diagnosis-reported', report);
  if (deps.afterReport)
    await deps.afterReport(report, subs).catch((e: unknown) => deps.warn?.(`after report: ${errorMessage(e)}`));
  await postEach(deps, subs, 'diagnosis-details', report);
  if (report.followedFrom) await rememberFollowedRoots(deps, subs, report.target);
  await deps.store.forget(job.id ?? '').catch(() => undefined);
  deps.onDiagnosis?.('reported', report, (Date.now() - started) / 1000);
  return { outcome: 'reported', rootCause: report.rootCause, threads: subs.length };
}

export const diagnoseJob = jobKind({
  kind: 'diagnose',
  summary: 'diagnose one InferenceService and answer every thread waiting on it',
  addedBy: '`/isvc diagnose`, mentions (queue/request-diagnosis)',
  schema: diagnoseJobSchema,
  // one request, one job: a request run again after a crash adds nothing (BullMQ keeps one job per id);
  // the deduplication id makes a second request for the same InferenceService find this one
  options: (data) => ({
    jobId: data.requestId
      ? `${diagnosisDedupId(data.target)}__${data.requestId}`
      : newDiagnosisJobId(data.target, Date.parse(data.requestedAt) || Date.now()),
    deduplication: { id: diagnosisDedupId(data.target) },
  }),
  process: processDiagnosis,
});
