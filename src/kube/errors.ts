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
    super('KUBE_FORBIDDEN', `forbidden: cannot ${denied.verb} ${describeResource(denied)}${denied.namespace ? ` in namespace ${denied.namespace}` : ''}`);
  }
}

/** The cluster could not be reached or answered with a server error (CLI exit status 3; retried by jobs). */
export class ClusterUnreachableError extends CodedError<'KUBE_UNREACHABLE'> {
  constructor(message: string, readonly status?: number) {
    super('KUBE_UNREACHABLE', message);
  }
}

export function describeResource(d: Pick<DeniedRequest, 'group' | 'resource'>): string {
  return d.group ? `${d.resource}.${d.group}` : d.resource;
}
