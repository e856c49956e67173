/**
 * The deadline of one job (config `diagnosis.jobTimeout`): the work gets a signal that aborts at
 * the deadline (or when the worker cancels the job), and the job stops waiting for it then even if
 * the work ignores the signal (a black-holed API server whose requests never end), so the thread
 * is told and the worker's slot is free for the other jobs.
 */
import { CodedError } from '../core/coded-error.js';

export class JobTimeoutError extends CodedError<'DIAGNOSIS_TIMEOUT'> {
  constructor(
    readonly ms: number,
    what: string,
  ) {
    super('DIAGNOSIS_TIMEOUT', `${what} did not finish within ${Math.round(ms / 1000)} s (diagnosis.jobTimeout)`);
  }
}

export async function withJobDeadline<T>(
  ms: number,
  what: string,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new JobTimeoutError(ms, what);
      reject(error); // first: the work's own rejection on abort must not win the race
      controller.abort(error);
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The work under the job's deadline when one is configured, else as it is. */
export function underJobDeadline<T>(
  ms: number | undefined,
  what: string,
  signal: AbortSignal | undefined,
  work: (signal?: AbortSignal) => Promise<T>,
): Promise<T> {
  return ms ? withJobDeadline(ms, what, signal, work) : work(signal);
}
