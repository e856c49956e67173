/** Errors the kube layer raises, each with a stable code. */

/** What the API refused: enough to name the RBAC rule that would allow it. */
export interface DeniedRequest {
  verb: string;
  resource: string;
  group: string;
  namespace?: string;
}

export class ForbiddenError extends Error {
  readonly code = 'KUBE_FORBIDDEN';
  constructor(readonly denied: DeniedRequest) {
    super(`forbidden: cannot ${denied.verb} ${describeResource(denied)}${denied.namespace ? ` in namespace ${denied.namespace}` : ''}`);
    this.name = 'ForbiddenError';
  }
}

/** The cluster could not be reached or answered with a server error (CLI exit status 3; retried by jobs). */
export class ClusterUnreachableError extends Error {
  readonly code = 'KUBE_UNREACHABLE';
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'ClusterUnreachableError';
  }
}

export function describeResource(d: Pick<DeniedRequest, 'group' | 'resource'>): string {
  return d.group ? `${d.resource}.${d.group}` : d.resource;
}
