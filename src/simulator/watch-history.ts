/**
 * The bounded history of store changes that watches replay from a resourceVersion. Older
 * changes fall out of the window (or are dropped by compact()); a watch from before the window
 * is answered 410 Gone like a compacted etcd.
 */
import type { KubeObject } from './kube-object.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreChange {
  type: ChangeType;
  /** group/version/plural of the object's type. */
  typeKey: string;
  resourceVersion: number;
  object: KubeObject;
  /** The object before a MODIFIED or DELETED change. */
  previous?: KubeObject;
}

export class WatchHistory {
  private readonly changes: StoreChange[] = [];
  /** Changes at or before this resourceVersion are no longer available. */
  private compactedThrough = 0;

  constructor(private readonly limit = 1000) {}

  record(change: StoreChange): void {
    this.changes.push(change);
    while (this.changes.length > this.limit) {
      const dropped = this.changes.shift()!;
      this.compactedThrough = dropped.resourceVersion;
    }
  }

  /** Changes after `resourceVersion`, or 'expired' when some of them were dropped. */
  since(resourceVersion: number): StoreChange[] | 'expired' {
    if (resourceVersion < this.compactedThrough) return 'expired';
    return this.changes.filter((c) => c.resourceVersion > resourceVersion);
  }

  /** Forgets everything up to `resourceVersion`. */
  compact(resourceVersion: number): void {
    this.compactedThrough = Math.max(this.compactedThrough, resourceVersion);
    while (this.changes.length && this.changes[0]!.resourceVersion <= resourceVersion) this.changes.shift();
  }
}
