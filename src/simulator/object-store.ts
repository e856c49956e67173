/**
 * The simulator's objects, in memory. Every change gets the next resourceVersion, is kept in a
 * bounded watch history and is delivered to subscribers (open watches). An object is kept once per
 * resource family at the family's preferred version and served at every version of it, converted
 * as the cluster's conversion webhook would (built-in kinds whose versions differ keep one object
 * per version). The history also answers lists at an older resourceVersion (paged lists).
 *
 * Tests use it directly: `store.upsert(obj)`, `store.get('serving.kserve.io/v1beta1',
 * 'InferenceService', 'default', 'x')`, `store.delete(...)`, `store.compact()`.
 */
import { deepCopy, isPlainObject, jsonEqual, type KubeObject } from './kube-object.js';
import { kubeTimestamp, stableUid } from './object-identity.js';
import { convertObject } from './convert-object.js';
import { ResourceRegistry, type ResourceType } from './resource-registry.js';
import { WatchHistory, type StoreChange } from './watch-history.js';

export type StoreListener = (change: StoreChange) => void;

/** The key of the objects a type serves: its family's (its own version's for `separate` families). */
export function typeKeyOf(type: Pick<ResourceType, 'group' | 'version' | 'plural' | 'family'>): string {
  return type.family.conversion === 'separate'
    ? `${type.group}/${type.version}/${type.plural}`
    : `${type.group}//${type.plural}`;
}

/** A stored object as served under `type`'s version. */
export function servedAs(type: Pick<ResourceType, 'version' | 'family'>, object: KubeObject): KubeObject {
  return convertObject(type.family, deepCopy(object), type.version);
}

/** etcd's key order (bytes, not locale): the order lists come in. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class ObjectStore {
  private readonly objects = new Map<string, KubeObject>();
  private readonly listeners = new Set<StoreListener>();
  private readonly history: WatchHistory;
  private revision = 0;

  constructor(
    readonly registry: ResourceRegistry = new ResourceRegistry(),
    options: { historyLimit?: number } = {},
  ) {
    this.history = new WatchHistory(options.historyLimit ?? 1000);
  }

  /** The resourceVersion of the latest change (what a list returns in metadata.resourceVersion). */
  get resourceVersion(): string {
    return String(this.revision);
  }

  /** Creates or replaces an object, filling what a live server would; returns the stored copy at the object's apiVersion. */
  upsert(input: Record<string, unknown>): KubeObject {
    const { type, object } = this.put(input);
    return servedAs(type, object);
  }

  /** Creates or replaces objects without answering copies (loading a snapshot). */
  add(input: Record<string, unknown>): void {
    this.put(input);
  }

  /** Namespaces that some stored object lives in. */
  namespacesInUse(): Set<string> {
    const names = new Set<string>();
    for (const object of this.objects.values()) if (object.metadata.namespace) names.add(object.metadata.namespace);
    return names;
  }

  private put(input: Record<string, unknown>): { type: ResourceType; object: KubeObject } {
    const given = this.normalize(input);
    const type = this.registry.ensure(given.apiVersion, given.kind, given.metadata.namespace !== undefined);
    const object = convertObject(type.family, given, type.family.versions[0]!);
    if (!type.namespaced) delete object.metadata.namespace;
    else object.metadata.namespace ??= 'default';
    const key = this.keyOf(type, object.metadata.namespace, object.metadata.name);
    const previous = this.objects.get(key);
    const meta = object.metadata;
    meta.uid =
      previous?.metadata.uid ?? meta.uid ?? stableUid(object.apiVersion, object.kind, meta.namespace, meta.name);
    meta.creationTimestamp = previous?.metadata.creationTimestamp ?? meta.creationTimestamp ?? kubeTimestamp();
    const previousGeneration = previous?.metadata.generation ?? 1;
    meta.generation = previous
      ? jsonEqual(previous.spec, object.spec)
        ? previousGeneration
        : previousGeneration + 1
      : (meta.generation ?? 1);
    meta.resourceVersion = String(++this.revision);
    this.objects.set(key, object);
    this.publish({
      type: previous ? 'MODIFIED' : 'ADDED',
      typeKey: typeKeyOf(type),
      resourceVersion: this.revision,
      object,
      ...(previous ? { previous } : {}),
    });
    return { type, object };
  }

  get(apiVersion: string, kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const type = this.registry.byKind(apiVersion, kind);
    return type ? this.getIn(type, namespace, name) : undefined;
  }

  list(apiVersion: string, kind: string, namespace?: string): KubeObject[] {
    const type = this.registry.byKind(apiVersion, kind);
    return type ? this.listIn(type, namespace) : [];
  }

  delete(apiVersion: string, kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const type = this.registry.byKind(apiVersion, kind);
    return type ? this.deleteIn(type, namespace, name) : undefined;
  }

  getIn(type: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.objects.get(this.keyOf(type, namespace, name));
    return found ? servedAs(type, found) : undefined;
  }

  /**
   * Objects of a type, in one namespace or (namespace undefined) all, sorted by namespace then name;
   * with `atRevision`, as they were then ('expired' when the history no longer reaches back).
   */
  listIn(type: ResourceType, namespace?: string): KubeObject[];
  listIn(type: ResourceType, namespace: string | undefined, atRevision: number): KubeObject[] | 'expired';
  listIn(type: ResourceType, namespace?: string, atRevision?: number): KubeObject[] | 'expired' {
    const stored = this.storedIn(type, namespace, atRevision);
    return stored === 'expired' ? stored : stored.map((o) => servedAs(type, o));
  }

  /**
   * As listIn, but the stored objects themselves (not copies, not converted to the type's version):
   * for a list page, which converts only the objects it serves. Callers must not change them.
   */
  storedIn(type: ResourceType, namespace?: string, atRevision?: number): readonly KubeObject[] | 'expired' {
    const typeKey = typeKeyOf(type);
    const state = new Map<string, KubeObject>();
    for (const [key, object] of this.objects) if (key.startsWith(`${typeKey}/`)) state.set(key, object);
    if (atRevision !== undefined && atRevision < this.revision) {
      const undone = this.history.since(atRevision);
      if (undone === 'expired') return 'expired';
      for (const change of undone.filter((c) => c.typeKey === typeKey).reverse()) {
        const key = this.keyOf(type, change.object.metadata.namespace, change.object.metadata.name);
        if (change.type === 'ADDED') state.delete(key);
        else state.set(key, change.previous ?? change.object);
      }
    }
    const found: KubeObject[] = [];
    for (const object of state.values()) {
      if (namespace !== undefined && type.namespaced && object.metadata.namespace !== namespace) continue;
      found.push(object);
    }
    return found.sort((a, b) =>
      byteOrder(`${a.metadata.namespace ?? ''}/${a.metadata.name}`, `${b.metadata.namespace ?? ''}/${b.metadata.name}`),
    );
  }

  deleteIn(type: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    const key = this.keyOf(type, namespace, name);
    const existing = this.objects.get(key);
    if (!existing) return undefined;
    this.objects.delete(key);
    const deleted = deepCopy(existing);
    deleted.metadata.resourceVersion = String(++this.revision);
    this.publish({
      type: 'DELETED',
      typeKey: typeKeyOf(type),
      resourceVersion: this.revision,
      object: deleted,
      previous: existing,
    });
    return servedAs(type, deleted);
  }

  /** Changes after a resourceVersion (for watch replay), or 'expired' when they fell out of the history. */
  changesSince(resourceVersion: number): StoreChange[] | 'expired' {
    return this.history.since(resourceVersion);
  }

  /** Forgets the watch history up to now: watches from an older resourceVersion get 410 Gone. */
  compact(): void {
    this.history.compact(this.revision);
  }

  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stored objects are replaced, never changed in place: the history and listeners share them. */
  private publish(change: StoreChange): void {
    this.history.record(change);
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // a broken watch must not break the store
      }
    }
  }

  private keyOf(type: ResourceType, namespace: string | undefined, name: string): string {
    return `${typeKeyOf(type)}/${type.namespaced ? (namespace ?? '') : ''}/${name}`;
  }

  private normalize(input: Record<string, unknown>): KubeObject {
    if (!isPlainObject(input)) throw new TypeError('an object must be a JSON object');
    const object = deepCopy(input) as KubeObject;
    if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string')
      throw new TypeError('an object needs apiVersion and kind');
    if (!isPlainObject(object.metadata) || typeof object.metadata.name !== 'string' || !object.metadata.name) {
      throw new TypeError(`${object.kind} needs metadata.name`);
    }
    return object;
  }
}
