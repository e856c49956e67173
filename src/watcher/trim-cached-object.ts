/**
 * What an informer keeps of an object it caches: everything but what no reader of the cache uses.
 * `metadata.managedFields` (server-side apply's bookkeeping, often larger than the spec) and the
 * `kubectl.kubernetes.io/last-applied-configuration` annotation (a second copy of the object, as
 * JSON text) are dropped, as client-go users do with an informer transform. The diagnoses that
 * start from a cached InferenceService read its spec, status, labels, other annotations and
 * resourceVersion; a remediation merge-patches the live object and never sends these fields back.
 * The apiVersion and kind become the informer's own strings, one for every object instead of one
 * copy each. Changes the object in place (it is fresh from JSON.parse); applying it twice is harmless.
 */
import type { KubernetesObject } from '@kubernetes/client-node';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

export function trimCachedObject<T extends KubernetesObject>(
  object: T,
  shared: { apiVersion: string; kind: string },
): T {
  if (object.apiVersion === shared.apiVersion) object.apiVersion = shared.apiVersion;
  if (object.kind === shared.kind) object.kind = shared.kind;
  const metadata = object.metadata;
  if (!metadata) return object;
  delete metadata.managedFields;
  const annotations = metadata.annotations;
  if (annotations && LAST_APPLIED_ANNOTATION in annotations) {
    delete annotations[LAST_APPLIED_ANNOTATION];
    if (Object.keys(annotations).length === 0) delete metadata.annotations;
  }
  return object;
}
