/**
 * Namespaces a live cluster would have for a snapshot: default, kube-system, and every namespace
 * its objects live in (kubectl checks the namespace exists when an object is not found).
 */
import type { ObjectStore } from './object-store.js';

export function addImplicitNamespaces(store: ObjectStore, timestamp?: string): void {
  const names = new Set(['default', 'kube-system', ...store.namespacesInUse()]);
  for (const name of [...names].sort()) {
    if (store.get('v1', 'Namespace', undefined, name)) continue;
    store.upsert({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        labels: { 'kubernetes.io/metadata.name': name },
        ...(timestamp ? { creationTimestamp: timestamp } : {}),
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }
}
