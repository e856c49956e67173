/**
 * What a person is told when what they asked for ends without its answer (a command's job failed
 * its last attempt, or a command that reads the cluster itself failed): what they asked, why (the
 * API fault: refused, timed out, unreachable; else the error's code), what was tried (the cluster,
 * how many attempts) and when to ask again. Built here once for every command kind; the surface's
 * notifier renders it.
 */
import { errorCode } from '../core/error-message.js';
import { apiFaultOf, type ApiFault } from './api-fault.js';

/** Who waits for a job's answer, and how they asked. */
export interface Asker {
  channel: string;
  user: string;
  threadTs?: string;
  /** The command as asked, without `/isvc` (`status -n prod`): shown, and offered to run again. */
  text: string;
}

export interface CommandFailure {
  /** The command as asked, without `/isvc`. */
  text: string;
  /** Null: not an API fault (`code` says what failed). */
  fault: ApiFault | null;
  code: string;
  /** Attempts made before giving up. */
  attempts: number;
  /** The cluster tried (its name in the config or kubeconfig); null when not known. */
  cluster: string | null;
  /** When asking again makes sense, in seconds. */
  retryInS: number;
}

/** An API fault is worth a minute's wait (the API server restarting, a network blip); anything else, a moment. */
export const RETRY_AFTER_FAULT_S = 60;
export const RETRY_AFTER_ERROR_S = 10;

/** The error's code; an UnrecoverableError carries it at the head of its message ("FORWARD_UNSUPPORTED: …"). */
function codeOf(error: unknown): string {
  const code = errorCode(error, '');
  if (code) return code;
  return /^([A-Z][A-Z0-9_]{2,}):/.exec(error instanceof Error ? error.message : '')?.[1] ?? 'INTERNAL_ERROR';
}

export function commandFailureOf(
  error: unknown,
  o: { text: string; attempts: number; cluster?: string | null },
): CommandFailure {
  const fault = apiFaultOf(error);
  return {
    text: o.text,
    fault,
    code: codeOf(error),
    attempts: o.attempts,
    cluster: o.cluster ?? null,
    retryInS: fault ? RETRY_AFTER_FAULT_S : RETRY_AFTER_ERROR_S,
  };
}
