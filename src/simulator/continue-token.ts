/**
 * The continue token of a paged list, in kube-apiserver's format: base64url (unpadded) of
 * `{"v":"meta.k8s.io/v1","rv":<list resourceVersion>,"start":"<key after the last item>\u0000"}`,
 * where the key is `namespace/name` across namespaces and `name` within one. A token that does
 * not decode is a 400 "invalid continue token".
 */
import { badRequest } from './api-error.js';

export interface ContinuePoint {
  resourceVersion: number;
  /** Key of the last item returned: the next page starts after it. */
  after: string;
}

export function encodeContinue(point: ContinuePoint): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv: point.resourceVersion, start: `${point.after}\u0000` });
  return Buffer.from(json, 'utf8').toString('base64url');
}

export function decodeContinue(token: string): ContinuePoint {
  let parsed: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw badRequest('invalid continue token: continue key is not valid: illegal base64 data or JSON');
  }
  if (parsed.v !== 'meta.k8s.io/v1')
    throw badRequest(
      `invalid continue token: continue key is not valid: server does not recognize this encoded key (version ${JSON.stringify(parsed.v ?? '')})`,
    );
  if (typeof parsed.rv !== 'number' || !Number.isInteger(parsed.rv) || parsed.rv <= 0) {
    throw badRequest(
      'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  }
  if (typeof parsed.start !== 'string' || parsed.start === '')
    throw badRequest('invalid continue token: continue key is not valid: encoded start key empty');
  return { resourceVersion: parsed.rv, after: parsed.start.replace(/\u0000$/, '') };
}
