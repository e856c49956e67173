/**
 * Errors the simulated API server answers with, as kube-apiserver Status objects
 * (`{kind:"Status",status:"Failure",reason,code,message,details}`).
 */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: { reason?: string; message: string; field?: string }[];
  retryAfterSeconds?: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
    /** The Status's list metadata (a 410 Expired list carries a fresh continue token). */
    readonly listMeta?: { continue?: string },
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): Record<string, unknown> {
    return statusObject(this.code, this.reason, this.message, this.details, this.listMeta);
  }
}

export function statusObject(
  code: number,
  reason: string,
  message: string,
  details?: StatusDetails,
  listMeta: { continue?: string } = {},
): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: listMeta,
    status: 'Failure',
    message,
    reason,
    ...(details && Object.keys(details).length ? { details } : {}),
    code,
  };
}

/** "inferenceservices.serving.kserve.io" / "pods": how kube names a resource in messages. */
export function qualifiedResource(plural: string, group: string): string {
  return group ? `${plural}.${group}` : plural;
}

export const notFound = (plural: string, group: string, name: string): ApiError =>
  new ApiError(404, 'NotFound', `${qualifiedResource(plural, group)} "${name}" not found`, {
    name,
    group,
    kind: plural,
  });

export const alreadyExists = (plural: string, group: string, name: string): ApiError =>
  new ApiError(409, 'AlreadyExists', `${qualifiedResource(plural, group)} "${name}" already exists`, {
    name,
    group,
    kind: plural,
  });

export const conflict = (plural: string, group: string, name: string): ApiError =>
  new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(plural, group)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group, kind: plural },
  );

export const invalid = (kind: string, group: string, name: string, problem: string, field?: string): ApiError =>
  new ApiError(
    422,
    'Invalid',
    `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${field ? `${field}: ` : ''}${problem}`,
    {
      name,
      group,
      kind,
      causes: [{ reason: 'FieldValueInvalid', message: problem, ...(field ? { field } : {}) }],
    },
  );

export const badRequest = (message: string): ApiError => new ApiError(400, 'BadRequest', message);

export const pathNotFound = (): ApiError =>
  new ApiError(404, 'NotFound', 'the server could not find the requested resource');

export const methodNotAllowed = (method: string): ApiError =>
  new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource (${method})`);

export const unsupportedMediaType = (contentType: string): ApiError =>
  new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got ${contentType || 'none'})`,
  );
