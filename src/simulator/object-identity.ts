/** Server-filled identity of an object: a stable uid derived from its coordinates, and timestamps as kube prints them. */
import { createHash, randomUUID } from 'node:crypto';

/** A uuid (v5-like layout) derived from kind/namespace/name, so a snapshot's objects keep the same uid on every run. */
export function stableUid(apiVersion: string, kind: string, namespace: string | undefined, name: string): string {
  const hex = createHash('sha1')
    .update(`${apiVersion}|${kind}|${namespace ?? ''}|${name}`)
    .digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function newUid(): string {
  return randomUUID();
}

/** RFC 3339 with second precision, as kube writes metadata timestamps. */
export function kubeTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
