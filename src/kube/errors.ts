/** Errors the kube layer raises, each with a stable code. */
import { CodedError } from '../core/coded-error.js';

/** What the API refused: enough to name the RBAC rule that would allow it. */
export interface DeniedRequest {
  verb: string;
  resource: string;
  group: string;
  namespace?: string;
}

export class ForbiddenError extends CodedError<'KUBE_FORBIDDEN'> {
  constructor(readonly denied: DeniedRequest) {
    super(
      'KUBE_FORBIDDEN',
      `forbidden: cannot ${denied.verb} ${describeResource(denied)}${denied.namespace ? ` in namespace ${denied.namespace}` : ''}`,
    );
  }
}

/** The cluster could not be reached or answered with a server error (CLI exit status 3; retried by jobs). */
export class ClusterUnreachableError extends CodedError<'KUBE_UNREACHABLE' | 'KUBE_TIMEOUT'> {
  constructor(
    message: string,
    readonly status?: number,
    code: 'KUBE_UNREACHABLE' | 'KUBE_TIMEOUT' = 'KUBE_UNREACHABLE',
  ) {
    super(code, message);
  }
}

/**
 * A request the API server did not answer within `kubernetes.requestTimeout` (a black-holed or
 * overloaded API server). A kind of ClusterUnreachableError (CLI exit status 3; jobs retry it),
 * with its own code and a message naming the request.
 */
export class KubeTimeoutError extends ClusterUnreachableError {
  constructor(
    readonly request: string,
    readonly timeoutMs: number,
  ) {
    super(
      `the Kubernetes API did not answer ${request} within ${formatSeconds(timeoutMs)} (kubernetes.requestTimeout)`,
      undefined,
      'KUBE_TIMEOUT',
    );
  }
}

function formatSeconds(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

export function describeResource(d: Pick<DeniedRequest, 'group' | 'resource'>): string {
  return d.group ? `${d.resource}.${d.group}` : d.resource;
}

/**
 * The first line of what went wrong with a request that got no answer. undici's fetch (client-node
 * 2) rejects with "fetch failed" and the reason in `cause` (connect ECONNREFUSED 10.0.0.1:6443,
 * getaddrinfo ENOTFOUND …, a SOCKS proxy's refusal): the reason is what a person needs.
 */
export function requestFailureOf(error: unknown, max: number): string {
  let e: unknown = error;
  for (let depth = 0; depth < 3 && e instanceof Error && e.message === 'fetch failed' && e.cause; depth += 1)
    e = e.cause;
  const message = e instanceof Error ? e.message : String(e);
  return (message.split('\n')[0] ?? '').slice(0, max);
}
