/**
 * Why a command could not read the cluster, in the words its final message uses: the API server
 * refused the connection (nothing listening), did not answer in time (black-holed, overloaded), or
 * could not be reached otherwise (DNS, routing, resets, its own 5xx). Anything else is not an API
 * fault (null): the caller names its code instead.
 */
import { errorMessage } from '../core/error-message.js';
import { ClusterUnreachableError, KubeTimeoutError } from '../kube/errors.js';
import { JobTimeoutError } from './job-deadline.js';
import { publicReason } from './public-reason.js';

export type ApiCause = 'refused' | 'timed-out' | 'unreachable';

export interface ApiFault {
  cause: ApiCause;
  /** The last error, fit for a channel (no API server address). */
  reason: string;
}

/** The messages down an error's `cause` chain (undici puts the socket's error there). */
function messagesOf(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e; depth += 1) {
    parts.push(e instanceof Error ? `${e.message} ${String((e as { code?: unknown }).code ?? '')}` : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(' ');
}

export function apiFaultOf(error: unknown): ApiFault | null {
  const timedOut = error instanceof KubeTimeoutError || error instanceof JobTimeoutError;
  if (!timedOut && !(error instanceof ClusterUnreachableError)) return null;
  const cause: ApiCause = timedOut
    ? 'timed-out'
    : /ECONNREFUSED/.test(messagesOf(error))
      ? 'refused'
      : /ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|timed? ?out/i.test(messagesOf(error))
        ? 'timed-out'
        : 'unreachable';
  return { cause, reason: publicReason(errorMessage(error)) };
}
