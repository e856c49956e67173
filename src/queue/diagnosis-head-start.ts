/**
 * A diagnosis begun by the process that queues its job, for the worker of the same process to take
 * over. A `/isvc diagnose` posts its root message and adds its job before a worker picks the job up
 * (Slack and Redis round trips); in a process that runs both the Slack listeners and a worker, the
 * diagnosis' reads start as soon as the request has claimed the InferenceService, and the job, when
 * this process's worker takes it, waits for that diagnosis instead of starting one. The job stays
 * the durable record: a job picked up by another process, or run again after a crash or a retry,
 * diagnoses as before; a head start nobody took is cancelled after `keepMs`.
 */
import type { TargetRef } from '../core/target-ref.js';
import type { Report } from '../findings/types.js';

export interface DiagnosisHeadStartOptions {
  /** Head starts waiting to be taken at once, at most (the worker's concurrency): a burst is not diagnosed all at once. */
  max: number;
  /** How long a head start waits to be taken before it is cancelled (default 60 s). */
  keepMs?: number;
}

export interface DiagnosisHeadStart {
  /** Begins the diagnosis of the job about to be added under `jobId` (nothing when one is already waiting for it, or `max` are). */
  start(jobId: string, target: TargetRef): void;
  /**
   * The diagnosis begun for this job, once: a function that waits for it (`signal` cancels it), or
   * undefined when there is none.
   */
  take(jobId: string): ((signal?: AbortSignal) => Promise<Report>) | undefined;
  /** Cancels the head start of a job that was not added after all. */
  drop(jobId: string): void;
  /** How many are waiting to be taken. */
  readonly waiting: number;
}

interface Begun {
  report: Promise<Report>;
  controller: AbortController;
  timer: NodeJS.Timeout;
}

export function createDiagnosisHeadStart(diagnose: (target: TargetRef, signal: AbortSignal) => Promise<Report>, options: DiagnosisHeadStartOptions): DiagnosisHeadStart {
  const keepMs = options.keepMs ?? 60_000;
  const begun = new Map<string, Begun>();
  const remove = (jobId: string): Begun | undefined => {
    const b = begun.get(jobId);
    if (!b) return undefined;
    begun.delete(jobId);
    clearTimeout(b.timer);
    return b;
  };
  const cancel = (jobId: string, why: string) => remove(jobId)?.controller.abort(new Error(why));
  return {
    start(jobId, target) {
      if (begun.has(jobId) || begun.size >= options.max) return;
      const controller = new AbortController();
      const report = diagnose(target, controller.signal);
      report.catch(() => undefined); // its error is the job's, when the job takes it
      const timer = setTimeout(() => cancel(jobId, 'no worker of this process took the job'), keepMs);
      timer.unref();
      begun.set(jobId, { report, controller, timer });
    },
    take(jobId) {
      const b = remove(jobId);
      if (!b) return undefined;
      return (signal) => {
        if (signal?.aborted) b.controller.abort(signal.reason);
        else signal?.addEventListener('abort', () => b.controller.abort(signal.reason), { once: true });
        return b.report;
      };
    },
    drop(jobId) {
      cancel(jobId, 'the job was not added');
    },
    get waiting() {
      return begun.size;
    },
  };
}
