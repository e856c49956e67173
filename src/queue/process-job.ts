/**
 * The worker's processor, a plain async function: validates the job, runs the diagnosis (or the
 * namespace status), and answers every waiting thread. ClusterUnreachableError is rethrown so
 * BullMQ retries with backoff (the root message says so); after the last attempt the threads get a
 * CLUSTER_UNREACHABLE message. Bad job data is an UnrecoverableError (no retries).
 */
import { UnrecoverableError } from 'bullmq';
import { errorCode, errorMessage } from '../core/error-message.js';
import { withPostScope } from '../core/post-scope.js';
import type { Notify } from '../core/notify.js';
import type { TargetRef } from '../core/target-ref.js';
import type { IsvcStatusList } from '../diagnosis/list-isvc-status.js';
import type { Report } from '../findings/types.js';
import { ClusterUnreachableError } from '../kube/errors.js';
import type { DiagnosisEvent, DiagnosisFailure, Progress } from './diagnosis-events.js';
import { diagnosisDedupId, jobDataSchema, type ClickJobData, type CommandJobData, type DiagnoseJobData, type RemediateJobData, type StatusJobData, type Subscriber } from './job-data.js';
import { JobTimeoutError, withJobDeadline } from './job-deadline.js';
import { publicReason } from './public-reason.js';
import type { SubscriberStore } from './subscriber-store.js';

function deadline<T>(deps: Pick<JobDeps, 'jobTimeoutMs'>, what: string, signal: AbortSignal | undefined, work: (signal?: AbortSignal) => Promise<T>): Promise<T> {
  return deps.jobTimeoutMs ? withJobDeadline(deps.jobTimeoutMs, what, signal, work) : work(signal);
}

/** The parts of a BullMQ Job the processor reads. */
export interface JobLike {
  id?: string;
  data: unknown;
  attemptsMade: number;
  opts: { attempts?: number };
}

export interface JobDeps {
  diagnose(target: TargetRef, signal?: AbortSignal): Promise<Report>;
  listStatus(namespace: string, signal?: AbortSignal): Promise<IsvcStatusList>;
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
  /** Applies an approved remediation proposal. */
  remediate?(data: RemediateJobData, signal?: AbortSignal): Promise<{ outcome: 'remediation'; state: string }>;
  /** Multi-cluster agents: clicks and commands the web process handed over. */
  forwarded?(data: ClickJobData | CommandJobData): Promise<string>;
}

export type DiagnosisOutcome = 'reported' | 'cluster-unreachable' | 'failed';
export type JobResult =
  | { outcome: DiagnosisOutcome; rootCause: string | null; threads: number }
  | { outcome: 'status'; count: number }
  | { outcome: 'remediation'; state: string }
  | { outcome: 'forwarded'; result: string };

export function processJob(job: JobLike, deps: JobDeps, signal?: AbortSignal): Promise<JobResult> {
  // the job's posts have an identity across runs: a run after a crash does not post them again
  return withPostScope(job.id ?? '', () => processJobData(job, deps, signal));
}

async function processJobData(job: JobLike, deps: JobDeps, signal?: AbortSignal): Promise<JobResult> {
  const parsed = jobDataSchema.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`JOB_DATA_INVALID: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  if (parsed.data.kind === 'status') return processStatus(parsed.data, deps, signal);
  if (parsed.data.kind === 'remediate') {
    if (!deps.remediate) throw new UnrecoverableError('REMEDIATION_DISABLED: this worker cannot apply remediations');
    return deps.remediate(parsed.data, signal);
  }
  if (parsed.data.kind === 'click' || parsed.data.kind === 'command') {
    if (!deps.forwarded) throw new UnrecoverableError('FORWARD_UNSUPPORTED: this worker is not a cluster agent');
    return { outcome: 'forwarded', result: await deps.forwarded(parsed.data) };
  }
  return processDiagnosis(job, parsed.data, deps, signal);
}

async function processStatus(data: StatusJobData, deps: JobDeps, signal?: AbortSignal): Promise<JobResult> {
  const items = await deadline(deps, `the list of ${data.namespace}`, signal, (s) => deps.listStatus(data.namespace, s));
  const forbidden = items.length === 0 && (items as IsvcStatusList).forbidden !== undefined;
  await deps.notify({ kind: 'status-listed', namespace: data.namespace, items, ...(forbidden ? { forbidden: true } : {}), channel: data.channel, ...(data.threadTs ? { threadTs: data.threadTs } : {}) });
  return { outcome: 'status', count: items.length };
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

async function processDiagnosis(job: JobLike, data: DiagnoseJobData, deps: JobDeps, signal?: AbortSignal): Promise<JobResult> {
  const attempt = job.attemptsMade + 1;
  const attempts = job.opts.attempts ?? 1;
  const root = data.subscriber;
  const started = Date.now();
  const quietly = (p: Promise<unknown>) => p.catch((e: unknown) => deps.warn?.(`slack: ${errorMessage(e)}`));
  const progress = (p: Progress) => quietly(deps.notify({ kind: 'diagnosis-progress', target: data.target, subscriber: root, progress: p }));
  // the root message says "running" while the diagnosis runs: the diagnosis does not wait for Slack,
  // and every later post or update of this root waits for it, so it never lands after them
  const running = progress({ phase: 'running', attempt });
  let report: Report;
  try {
    report = await deadline(deps, `the diagnosis of ${data.target.namespace}/${data.target.name}`, signal, (s) => deps.diagnose(data.target, s));
  } catch (error) {
    await running;
    // a job stopped at its deadline is not tried again: the thread hears now, not after every attempt's deadline
    const last = attempt >= attempts || error instanceof JobTimeoutError;
    if (error instanceof ClusterUnreachableError && !last) {
      const delayMs = deps.backoffMs * 2 ** (attempt - 1);
      await progress({ phase: 'retrying', attempt, delayMs, reason: error.message });
      throw error;
    }
    if (!last && !(error instanceof UnrecoverableError)) throw error;
    const subs = threads(root, await deps.store.close(job.id ?? '', diagnosisDedupId(data.target)));
    const unreachable = error instanceof ClusterUnreachableError;
    const failure: DiagnosisFailure = unreachable
      ? { kind: 'cluster-unreachable', reason: publicReason(error.message), attempts }
      : error instanceof JobTimeoutError
        ? { kind: 'timed-out', seconds: Math.round(error.ms / 1000) }
        : { kind: 'failed', code: errorCode(error) };
    await Promise.all(subs.map((subscriber) => deps.notify({ kind: 'diagnosis-failed', target: data.target, subscriber, failure })));
    deps.onDiagnosis?.(unreachable ? 'cluster-unreachable' : 'failed', null, (Date.now() - started) / 1000);
    if (unreachable) return { outcome: 'cluster-unreachable', rootCause: 'CLUSTER_UNREACHABLE', threads: subs.length };
    if (error instanceof JobTimeoutError) return { outcome: 'failed', rootCause: 'DIAGNOSIS_TIMEOUT', threads: subs.length };
    throw error;
  }
  const subs = threads(root, await deps.store.close(job.id ?? '', diagnosisDedupId(data.target)));
  await running;
  // the poster already retried (without duplicating); a thread Slack still refuses is logged, not a job
  // retry that would diagnose again and post the other threads' answers twice
  await Promise.all(subs.map((subscriber) => deps.notify({ kind: 'diagnosis-reported', report, subscriber }).catch((e: unknown) => deps.warn?.(`slack: the report for ${subscriber.channel}/${subscriber.threadTs} could not be posted: ${errorMessage(e)}`))));
  if (deps.afterReport) await deps.afterReport(report, subs).catch((e: unknown) => deps.warn?.(`after report: ${errorMessage(e)}`));
  await Promise.all(subs.map((subscriber) => deps.notify({ kind: 'diagnosis-details', report, subscriber }).catch((e: unknown) => deps.warn?.(`slack: the details for ${subscriber.channel}/${subscriber.threadTs} could not be posted: ${errorMessage(e)}`))));
  await deps.store.forget(job.id ?? '').catch(() => undefined);
  deps.onDiagnosis?.('reported', report, (Date.now() - started) / 1000);
  return { outcome: 'reported', rootCause: report.rootCause, threads: subs.length };
}
