/**
 * The diagnosis' only way to read the cluster: typed, memoised reads over client-node (a read asked
 * by several playbooks is one request), each at the API version the cluster serves (discovery,
 * remembered per process), with Kubernetes' answers mapped to what a diagnosis needs: 404 → null / [],
 * 403 → recorded for BOT_FORBIDDEN and thrown as ForbiddenError, anything else → ClusterUnreachableError
 * or KubeTimeoutError. Logs are read bounded (tail and byte limits). Remediation plans reuse its answers.
 *
 * Core objects (pods, events, services, …) have a method each; every other kind is read by name,
 * `listKind(kind, …)` / `readKind(kind, …)`, from the kind table (`KINDS` in resources.ts): a check that
 * reads a new kind adds a line there, not a method here. A kind whose group the cluster does not
 * serve costs no request.
 */
import { pagedList } from './paged-list.js';
import type {
  CoreV1Event,
  V1ConfigMap,
  V1LimitRange,
  V1Namespace,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1ResourceQuota,
  V1ServiceAccount,
  V1Service,
} from '@kubernetes/client-node';
import type { z } from 'zod';
import type { KubeClients } from './client.js';
import {
  ClusterUnreachableError,
  ForbiddenError,
  KubeTimeoutError,
  requestFailureOf,
  type DeniedRequest,
} from './errors.js';
import { isRequestTimeout, requestLimitsOf } from './request-limits.js';
import {
  INFERENCE_SERVICE_VERSIONS,
  KINDS,
  LLM_INFERENCE_SERVICE_VERSIONS,
  type CustomResource,
  type KindEntry,
  type KindName,
  type ObjectOfKind,
  type VersionedResource,
} from './resources.js';
import {
  answeredRecently,
  cachedServedGroups,
  discoveryHints,
  firstServed,
  rememberServedGroups,
  sameServedGroups,
  servedGroupsOf,
  type ServedGroups,
} from './served-groups.js';
import {
  inferenceServiceSchema,
  kubeObjectSchema,
  parseItems,
  type InferenceServiceObject,
  type KubeObject,
} from './schemas.js';

export interface FoundInferenceService {
  resource: CustomResource;
  object: InferenceServiceObject;
}

export interface LogOptions {
  previous?: boolean;
  tailLines?: number;
  limitBytes?: number;
  /** Read the start of the log (limitBytes from the first line, no tailLines): where a server logs how its start went. */
  head?: boolean;
}

/** Reads a reader already answered (see ClusterReader.answered). */
export interface AnsweredReads {
  inferenceService(namespace: string, name: string): FoundInferenceService | null | undefined;
  pods(namespace: string, labelSelector?: string): V1Pod[] | undefined;
  limitRanges(namespace: string): V1LimitRange[] | undefined;
  /** Left out of JSON: answers held in this process, not data to send or store. */
  toJSON(): undefined;
}

/**
 * Pods and events are listed a page at a time (a namespace may hold 20,000 pods: one answer would be
 * hundreds of MB), each item without its managedFields (no diagnosis reads them; they are much of a pod's size).
 */
function withoutManagedFields<T extends { metadata?: { managedFields?: unknown } }>(item: T): T {
  if (item.metadata?.managedFields) delete item.metadata.managedFields;
  return item;
}

/** Pod logs are always read bounded: a diagnosis needs the end of a log (or its start), never all of it. */
export const DEFAULT_LOG_TAIL_LINES = 400;
export const DEFAULT_LOG_LIMIT_BYTES = 256 * 1024;
export const HEAD_LOG_LIMIT_BYTES = 64 * 1024;

/** The InferenceService API versions `groups` serves, most preferred first (all supported ones when discovery is unavailable). */
function inferenceServiceVersionsIn(groups: ServedGroups | null): CustomResource[] {
  if (!groups) return [...INFERENCE_SERVICE_VERSIONS];
  return INFERENCE_SERVICE_VERSIONS.filter((r) => groups.versions.get(r.group)?.includes(r.version));
}

/**
 * Read-only access to the cluster for one diagnosis. Every read is memoised (playbooks running
 * concurrently share one request), 404 becomes `null` / `[]` (also when a custom resource's group
 * is not installed), 403 is recorded (the runner reports it as BOT_FORBIDDEN) and thrown as
 * ForbiddenError, anything else is a ClusterUnreachableError.
 */
export class ClusterReader {
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly deniedRequests = new Map<string, DeniedRequest>();
  /** The API group of an InferenceService handed in by `know` (e.g. from an informer's cache). */
  private given: CustomResource | undefined;
  /** Settled answers of `memo`, by the same keys. */
  private readonly answers = new Map<string, unknown>();
  /** Discovery got no answer at all (refused, timed out, reset): what it got instead; else undefined. */
  private unansweredDiscovery: ClusterUnreachableError | undefined;

  private readonly cluster: string;
  /**
   * What the first wave of reads goes by before discovery answers: this process's remembered
   * answer, else a hint from an earlier process (checked by `hintHeld`); undefined: neither.
   */
  private readonly early: { groups: ServedGroups; hinted: boolean; recent: boolean } | undefined;

  constructor(private readonly clients: KubeClients) {
    this.cluster = clients.kubeConfig.getCurrentCluster()?.server ?? '';
    const remembered = cachedServedGroups(this.cluster);
    const hint = remembered ? undefined : discoveryHints()?.read(this.cluster);
    this.early = remembered
      ? { groups: remembered, hinted: false, recent: true }
      : hint
        ? { groups: hint, hinted: true, recent: answeredRecently(hint) }
        : undefined;
  }

  /** Requests the API refused so far, one per distinct verb/resource/namespace. */
  denied(): DeniedRequest[] {
    return [...this.deniedRequests.values()];
  }

  requestCount(): number {
    return this.clients.requestCount();
  }

  /**
   * Resolves once every read started so far has answered (a check that failed on one read leaves
   * its other reads running): a diagnosis returns with no request in flight.
   */
  async settled(): Promise<void> {
    for (let seen = -1; seen !== this.memo.size; ) {
      seen = this.memo.size;
      await Promise.allSettled([...this.memo.values()]);
    }
  }

  /**
   * The API groups the cluster serves (discovery, remembered per cluster for a few minutes, and
   * written to the hint store when there is one); null when discovery is not available, and every
   * read is then tried as if its group were served.
   */
  servedGroups(): Promise<ServedGroups | null> {
    return this.once('discovery', async () => {
      const cached = cachedServedGroups(this.cluster);
      if (cached) return cached;
      try {
        const groups = servedGroupsOf(await this.clients.apis.getAPIVersions());
        rememberServedGroups(this.cluster, groups);
        discoveryHints()?.write(this.cluster, groups);
        return groups;
      } catch (error) {
        if (statusOf(error) === undefined)
          this.unansweredDiscovery = isRequestTimeout(error)
            ? new KubeTimeoutError('discovery (get /apis)', requestLimitsOf(this.clients.kubeConfig)?.timeoutMs ?? 0)
            : new ClusterUnreachableError(`cannot reach the Kubernetes API (discovery): ${messageOf(error)}`);
        return null;
      }
    });
  }

  /**
   * Why discovery got no answer at all (the API server refused, did not answer in time, or could
   * not be reached), once it has been asked; undefined when it answered (an HTTP error included).
   * A caller that has nothing else to go by gives up with it rather than ask again.
   */
  discoveryUnanswered(): ClusterUnreachableError | undefined {
    return this.unansweredDiscovery;
  }

  /**
   * The groups reads go by when they are known without waiting: remembered or hinted (an older
   * hint is checked by a fresh discovery sent alongside); undefined when discovery must answer first.
   * A read that goes by them enters the client at once, in the order it was asked for.
   */
  private knownGroups(): ServedGroups | undefined {
    if (!this.early) return undefined;
    if (this.early.hinted && !this.early.recent) void this.servedGroups();
    return this.early.groups;
  }

  /** The groups reads go by: at once when known (`knownGroups`), else discovery's answer. */
  private groupsForReads(): Promise<ServedGroups | null> {
    const known = this.knownGroups();
    return known ? Promise.resolve(known) : this.servedGroups();
  }

  /**
   * False when the reads so far went by a hint that a fresh discovery contradicts: the caller
   * starts again with a new reader (which goes by the fresh answer, now remembered). A recent hint
   * is checked only when asked `evenIfRecent` (the InferenceService was not found by it).
   */
  async hintHeld(evenIfRecent = false): Promise<boolean> {
    if (!this.early?.hinted || (this.early.recent && !evenIfRecent)) return true;
    const fresh = await this.servedGroups();
    return fresh === null || sameServedGroups(fresh, this.early.groups);
  }

  /**
   * The API group an InferenceService of this cluster most likely has, known without a request
   * (the first supported one the remembered or hinted discovery serves; serving.kserve.io when
   * nothing is known): the first wave lists pods by that group's label.
   */
  likelyInferenceServiceGroup(): string {
    if (this.given) return this.given.group;
    const groups = this.early?.groups;
    const served = groups
      ? INFERENCE_SERVICE_VERSIONS.find((r) => groups.versions.get(r.group)?.includes(r.version))
      : undefined;
    return (served ?? INFERENCE_SERVICE_VERSIONS[0]!).group;
  }

  /**
   * Takes the InferenceService as someone in this process already holds it (the watcher's
   * informer): `inferenceService` answers with it, without a request. Ignored when the object does
   * not parse as an InferenceService of that name.
   */
  know(namespace: string, name: string, held: { resource: CustomResource; object: unknown }): boolean {
    const parsed = inferenceServiceSchema.safeParse(held.object);
    if (
      !parsed.success ||
      parsed.data.metadata.name !== name ||
      (parsed.data.metadata.namespace ?? namespace) !== namespace
    )
      return false;
    const found: FoundInferenceService = { resource: held.resource, object: parsed.data };
    const key = `isvc/${namespace}/${name}`;
    this.memo.set(key, Promise.resolve(found));
    this.answers.set(key, found);
    this.given = held.resource;
    return true;
  }

  /** `know` for either kind: an LLMInferenceService held by an informer answers `llmInferenceService`. */
  knowAs(
    namespace: string,
    name: string,
    held: { resource: CustomResource; object: unknown },
    kind: 'isvc' | 'llmisvc',
  ): boolean {
    if (kind === 'isvc') return this.know(namespace, name, held);
    const parsed = inferenceServiceSchema.safeParse(held.object);
    if (!parsed.success || parsed.data.metadata.name !== name) return false;
    const found: FoundInferenceService = { resource: held.resource, object: parsed.data };
    this.memo.set(`llmisvc/${namespace}/${name}`, Promise.resolve(found));
    this.answers.set(`llmisvc/${namespace}/${name}`, found);
    return true;
  }

  /** The InferenceService API versions the cluster serves, most preferred first (all supported ones when discovery is unavailable). */
  async inferenceServiceVersions(): Promise<CustomResource[]> {
    return inferenceServiceVersionsIn(await this.groupsForReads());
  }

  /**
   * The InferenceService under any served API version, preferring the newest. When discovery is
   * remembered or hinted, every served version is asked at once; otherwise the newest version is
   * asked together with discovery (one round trip on a KServe cluster), and the versions discovery
   * says are served next, only when it is not there.
   */
  inferenceService(namespace: string, name: string): Promise<FoundInferenceService | null> {
    return this.once(`isvc/${namespace}/${name}`, async () => {
      const newest = INFERENCE_SERVICE_VERSIONS[0]!;
      const known = this.knownGroups();
      let versions: CustomResource[];
      if (known) versions = inferenceServiceVersionsIn(known);
      else {
        const [groups, first] = await Promise.all([
          this.servedGroups(),
          this.getCustom(newest, namespace, name, inferenceServiceSchema),
        ]);
        if (first) return { resource: newest, object: first };
        versions = (await this.inferenceServiceVersions()).filter((r) => r !== newest);
        if (groups && versions.length === 0) return null;
      }
      const found = await Promise.all(
        versions.map((resource) => this.getCustom(resource, namespace, name, inferenceServiceSchema)),
      );
      const index = found.findIndex((o) => o !== null);
      if (index < 0) return null;
      return { resource: versions[index]!, object: found[index]! };
    });
  }

  /**
   * Whether the groups known without a request (remembered or hinted discovery) serve
   * serving.kserve.io/v1alpha2, where KServe 0.17+ serves LLMInferenceService: the first wave then
   * looks for one of the name next to the InferenceService. False when nothing is known.
   */
  llmInferenceServiceLikelyServed(): boolean {
    const groups = this.early?.groups;
    return Boolean(groups?.versions.get(LLM_INFERENCE_SERVICE_VERSIONS[0]!.group)?.includes('v1alpha2'));
  }

  /** The LLMInferenceService API versions the cluster serves, most preferred first (both when discovery is unavailable). */
  async llmInferenceServiceVersions(): Promise<CustomResource[]> {
    const groups = await this.groupsForReads();
    if (!groups) return [...LLM_INFERENCE_SERVICE_VERSIONS];
    return LLM_INFERENCE_SERVICE_VERSIONS.filter((r) => groups.versions.get(r.group)?.includes(r.version));
  }

  /**
   * The LLMInferenceService of that name at the most preferred version the cluster serves (one
   * request: a release that serves both versions converts between them); null when there is none,
   * or the cluster serves neither version.
   */
  llmInferenceService(namespace: string, name: string): Promise<FoundInferenceService | null> {
    return this.once(`llmisvc/${namespace}/${name}`, async () => {
      const resource = (await this.llmInferenceServiceVersions())[0];
      if (!resource) return null;
      const object = await this.getCustom(resource, namespace, name, inferenceServiceSchema);
      return object ? { resource, object } : null;
    });
  }

  /** The LLMInferenceServices of a namespace (a routing group's members: their spec and status), one list. */
  llmInferenceServices(namespace: string): Promise<KubeObject[]> {
    return this.once(`llmisvcs/${namespace}`, async () => {
      const resource = (await this.llmInferenceServiceVersions())[0];
      if (!resource) return [];
      return this.listCustom(resource, namespace, kubeObjectSchema);
    });
  }

  /** Whether the cluster serves an API group (true when discovery is unavailable); no request when discovery is known. */
  async servesGroup(group: string): Promise<boolean> {
    const groups = await this.groupsForReads();
    return !groups || groups.versions.has(group);
  }

  /**
   * One object of a resource at the first of its versions the cluster serves; null when absent or its
   * group is not served. For a resource described outside the kind table (readKind is this for a kind in it).
   */
  getVersioned<T = KubeObject>(
    resource: VersionedResource,
    namespace: string,
    name: string,
    schema: z.ZodType<T> = kubeObjectSchema as unknown as z.ZodType<T>,
  ): Promise<T | null> {
    return this.once(`getv/${resource.group}/${resource.plural}/${namespace}/${name}`, async () => {
      const groups = this.knownGroups() ?? (await this.servedGroups());
      const version = groups ? firstServed(groups, resource.group, resource.versions) : resource.versions[0]!;
      if (!version) return null;
      const { group, plural, kind, namespaced } = resource;
      return this.getCustom({ group, version, plural, kind, namespaced }, namespace, name, schema);
    });
  }

  /** InferenceService names in a namespace under every served API version (for "did you mean"). */
  inferenceServiceNames(namespace: string): Promise<string[]> {
    return this.once(`isvc-names/${namespace}`, async () => {
      const versions = await this.inferenceServiceVersions();
      const lists = await Promise.all(versions.map((r) => this.listCustom(r, namespace, kubeObjectSchema)));
      return [...new Set(lists.flat().map((o) => o.metadata.name))].sort();
    });
  }

  /**
   * The namespaces holding an InferenceService of this name, under every served API version: one
   * cluster-wide list per version, selected by name on the server (`fieldSelector=metadata.name=`).
   * Empty when the bot may not list cluster-wide (a namespaced install): where else is a hint, not a check.
   */
  inferenceServiceNamespaces(name: string): Promise<string[]> {
    return this.once(`isvc-namespaces/${name}`, async () => {
      const versions = await this.inferenceServiceVersions();
      const lists = await Promise.all(
        versions.map((r) =>
          this.listCustom(r, undefined, kubeObjectSchema, undefined, `metadata.name=${name}`).catch(() => []),
        ),
      );
      const namespaces = lists.flat().map((o) => o.metadata.namespace);
      return [...new Set(namespaces.filter((ns): ns is string => typeof ns === 'string'))].sort();
    });
  }

  /**
   * The objects of a kind in the kind table (`KINDS` in kube/resources.ts), listed at the first of
   * its versions the cluster serves and parsed with its schema; [] without a request when the
   * cluster does not serve its group. Memoised: the first wave and the playbooks share one request.
   */
  listKind<K extends KindName>(
    kind: K,
    namespace: string | undefined,
    labelSelector?: string,
  ): Promise<ObjectOfKind<K>[]> {
    const entry: KindEntry = KINDS[kind];
    return this.listVersioned(
      entry,
      namespace,
      (entry.schema ?? kubeObjectSchema) as z.ZodType<ObjectOfKind<K>>,
      labelSelector,
    );
  }

  /**
   * One object of a kind in the kind table, at the first of its versions the cluster serves; null
   * when it does not exist, or without a request when the cluster does not serve its group.
   */
  readKind<K extends KindName>(kind: K, namespace: string, name: string): Promise<ObjectOfKind<K> | null> {
    const entry: KindEntry = KINDS[kind];
    return this.getVersioned(entry, namespace, name, (entry.schema ?? kubeObjectSchema) as z.ZodType<ObjectOfKind<K>>);
  }

  /**
   * Any resource, listed at the first of its versions the cluster serves; [] without a request when
   * the cluster does not serve its group (listKind is this for a kind in the kind table).
   */
  listVersioned<T = KubeObject>(
    resource: VersionedResource,
    namespace: string | undefined,
    schema: z.ZodType<T> = kubeObjectSchema as unknown as z.ZodType<T>,
    labelSelector?: string,
  ): Promise<T[]> {
    return this.once(
      `listv/${resource.group}/${resource.plural}/${namespace ?? '*'}/${labelSelector ?? ''}`,
      async () => {
        const groups = this.knownGroups() ?? (await this.servedGroups());
        const version = groups ? firstServed(groups, resource.group, resource.versions) : resource.versions[0]!;
        if (!version) return [];
        const { group, plural, kind, namespaced } = resource;
        return this.listCustom({ group, version, plural, kind, namespaced }, namespace, schema, labelSelector);
      },
    );
  }

  /** Pods in every namespace that match a label selector (controllers whose namespace varies by install). */
  podsAllNamespaces(labelSelector: string): Promise<V1Pod[]> {
    return this.once(`pods/*/${labelSelector}`, () =>
      this.call(
        { verb: 'list', resource: 'pods', group: '' },
        async () => (await this.clients.core.listPodForAllNamespaces({ labelSelector })).items,
      ),
    );
  }

  services(namespace: string, labelSelector?: string): Promise<V1Service[]> {
    return this.once(`services/${namespace}/${labelSelector ?? ''}`, () =>
      this.call(
        { verb: 'list', resource: 'services', group: '', namespace },
        async () => (await this.clients.core.listNamespacedService({ namespace, labelSelector })).items,
      ),
    );
  }

  namespace(name: string): Promise<V1Namespace | null> {
    return this.once(`namespace/${name}`, () =>
      this.call({ verb: 'get', resource: 'namespaces', group: '' }, () => this.clients.core.readNamespace({ name }), {
        notFound: null,
      }),
    );
  }

  /**
   * A ServiceAccount (the one a predictor runs as): the names of the secrets it lists, which KServe
   * reads credentials from. Secrets themselves are never read: their values stay in the cluster.
   */
  serviceAccount(namespace: string, name: string): Promise<V1ServiceAccount | null> {
    return this.once(`serviceaccount/${namespace}/${name}`, () =>
      this.call(
        { verb: 'get', resource: 'serviceaccounts', group: '', namespace },
        () => this.clients.core.readNamespacedServiceAccount({ namespace, name }),
        { notFound: null },
      ),
    );
  }

  /** A PersistentVolumeClaim (a pvc:// storageUri names it); null when it does not exist. */
  persistentVolumeClaim(namespace: string, name: string): Promise<V1PersistentVolumeClaim | null> {
    return this.once(`pvc/${namespace}/${name}`, () =>
      this.call(
        { verb: 'get', resource: 'persistentvolumeclaims', group: '', namespace },
        () => this.clients.core.readNamespacedPersistentVolumeClaim({ namespace, name }),
        { notFound: null },
      ),
    );
  }

  /** The cluster's PersistentVolumes: the one a claim bound to, and those still Available. */
  persistentVolumes(): Promise<V1PersistentVolume[]> {
    return this.once('pvs', () =>
      this.call(
        { verb: 'list', resource: 'persistentvolumes', group: '' },
        async () =>
          (await pagedList((page) => this.clients.core.listPersistentVolume({ ...page }), withoutManagedFields)).items,
      ),
    );
  }

  pods(namespace: string, labelSelector?: string): Promise<V1Pod[]> {
    return this.once(`pods/${namespace}/${labelSelector ?? ''}`, () =>
      this.call(
        { verb: 'list', resource: 'pods', group: '', namespace },
        async () =>
          (
            await pagedList(
              (page) => this.clients.core.listNamespacedPod({ namespace, labelSelector, ...page }),
              withoutManagedFields,
            )
          ).items,
      ),
    );
  }

  events(namespace: string): Promise<CoreV1Event[]> {
    return this.once(`events/${namespace}`, () =>
      this.call(
        { verb: 'list', resource: 'events', group: '', namespace },
        async () =>
          (
            await pagedList(
              (page) => this.clients.core.listNamespacedEvent({ namespace, ...page }),
              withoutManagedFields,
            )
          ).items,
      ),
    );
  }

  configMap(namespace: string, name: string): Promise<V1ConfigMap | null> {
    return this.once(`configmap/${namespace}/${name}`, () =>
      this.call(
        { verb: 'get', resource: 'configmaps', group: '', namespace },
        () => this.clients.core.readNamespacedConfigMap({ namespace, name }),
        {
          notFound: null,
        },
      ),
    );
  }

  resourceQuotas(namespace: string): Promise<V1ResourceQuota[]> {
    return this.once(`quotas/${namespace}`, () =>
      this.call(
        { verb: 'list', resource: 'resourcequotas', group: '', namespace },
        async () => (await this.clients.core.listNamespacedResourceQuota({ namespace })).items,
      ),
    );
  }

  limitRanges(namespace: string): Promise<V1LimitRange[]> {
    return this.once(`limitranges/${namespace}`, () =>
      this.call(
        { verb: 'list', resource: 'limitranges', group: '', namespace },
        async () => (await this.clients.core.listNamespacedLimitRange({ namespace })).items,
      ),
    );
  }

  /** A container's log (bounded by tailLines/limitBytes); null when there is none (not started, no previous instance). */
  podLog(namespace: string, pod: string, container: string, options: LogOptions = {}): Promise<string | null> {
    const previous = options.previous ?? false;
    const tailLines = options.head ? undefined : (options.tailLines ?? DEFAULT_LOG_TAIL_LINES);
    const limitBytes = options.limitBytes ?? (options.head ? HEAD_LOG_LIMIT_BYTES : DEFAULT_LOG_LIMIT_BYTES);
    return this.once(`log/${namespace}/${pod}/${container}/${previous}/${tailLines ?? 'head'}/${limitBytes}`, () =>
      this.call(
        { verb: 'get', resource: 'pods/log', group: '', namespace },
        async () => {
          const text = await this.clients.core.readNamespacedPodLog({
            namespace,
            name: pod,
            container,
            previous,
            tailLines,
            limitBytes,
          });
          return typeof text === 'string' ? text : String(text ?? '');
        },
        { notFound: null, badRequest: null },
      ),
    );
  }

  private getCustom<T>(
    resource: CustomResource,
    namespace: string,
    name: string,
    schema: z.ZodType<T>,
  ): Promise<T | null> {
    const key = `get/${resource.group}/${resource.version}/${resource.plural}/${namespace}/${name}`;
    return this.once(key, () =>
      this.call(
        { verb: 'get', resource: resource.plural, group: resource.group, namespace },
        async () => {
          const raw: unknown = resource.namespaced
            ? await this.clients.custom.getNamespacedCustomObject({
                group: resource.group,
                version: resource.version,
                namespace,
                plural: resource.plural,
                name,
              })
            : await this.clients.custom.getClusterCustomObject({
                group: resource.group,
                version: resource.version,
                plural: resource.plural,
                name,
              });
          const parsed = schema.safeParse(raw);
          return parsed.success ? parsed.data : null;
        },
        { notFound: null },
      ),
    );
  }

  private listCustom<T>(
    resource: CustomResource,
    namespace: string | undefined,
    schema: z.ZodType<T>,
    labelSelector?: string,
    fieldSelector?: string,
  ): Promise<T[]> {
    const key = `list/${resource.group}/${resource.version}/${resource.plural}/${namespace ?? '*'}/${labelSelector ?? ''}/${fieldSelector ?? ''}`;
    return this.once(key, () =>
      this.call(
        { verb: 'list', resource: resource.plural, group: resource.group, ...(namespace ? { namespace } : {}) },
        async () => {
          const { group, version, plural } = resource;
          const raw = (
            namespace && resource.namespaced
              ? await this.clients.custom.listNamespacedCustomObject({
                  group,
                  version,
                  namespace,
                  plural,
                  labelSelector,
                  fieldSelector,
                })
              : await this.clients.custom.listClusterCustomObject({
                  group,
                  version,
                  plural,
                  labelSelector,
                  fieldSelector,
                })
          ) as { items?: unknown };
          return parseItems(schema, raw?.items);
        },
        { notFound: [] as T[] },
      ),
    );
  }

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.memo.set(key, p);
      p.then(
        (value) => this.answers.set(key, value),
        () => undefined,
      );
    }
    return p;
  }

  /**
   * What this reader already got back, without a request (undefined when it never asked, or the
   * read failed): a remediation offered from this diagnosis plans with it instead of reading again.
   */
  answered(): AnsweredReads {
    const get = <T>(key: string) => this.answers.get(key) as T | undefined;
    return {
      inferenceService: (namespace, name) => get<FoundInferenceService | null>(`isvc/${namespace}/${name}`),
      pods: (namespace, labelSelector) => get<V1Pod[]>(`pods/${namespace}/${labelSelector ?? ''}`),
      limitRanges: (namespace) => get<V1LimitRange[]>(`limitranges/${namespace}`),
      toJSON: () => undefined,
    };
  }

  private async call<T, F = never>(
    request: DeniedRequest,
    send: () => Promise<T>,
    fallbacks: { notFound?: F; badRequest?: F } = {},
  ): Promise<T | F> {
    try {
      return await send();
    } catch (error) {
      const status = statusOf(error);
      if (status === 404 && 'notFound' in fallbacks) return fallbacks.notFound as F;
      if (status === 400 && 'badRequest' in fallbacks) return fallbacks.badRequest as F;
      if (status === 403 || status === 401) {
        const key = `${request.verb}/${request.group}/${request.resource}/${request.namespace ?? ''}`;
        this.deniedRequests.set(key, request);
        throw new ForbiddenError(request);
      }
      const what = `${request.verb} ${request.resource}${request.namespace ? ` in ${request.namespace}` : ''}`;
      if (status === undefined && isRequestTimeout(error))
        throw new KubeTimeoutError(what, requestLimitsOf(this.clients.kubeConfig)?.timeoutMs ?? 0);
      if (status === undefined)
        throw new ClusterUnreachableError(`cannot reach the Kubernetes API (${what}): ${messageOf(error)}`);
      throw new ClusterUnreachableError(
        `the Kubernetes API answered ${status} to ${what}: ${messageOf(error)}`,
        status,
      );
    }
  }
}

/** The HTTP status of a client-node ApiException, or undefined for network errors. */
export function statusOf(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'number' && code >= 100 && code < 600) return code;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'body' in error) {
    const body = (error as { body: unknown }).body;
    if (typeof body === 'string') {
      try {
        const parsed = JSON.parse(body) as { message?: string };
        if (parsed.message) return parsed.message;
      } catch {
        return body.slice(0, 200);
      }
    } else if (body && typeof body === 'object' && 'message' in body) {
      return String((body as { message: unknown }).message);
    }
  }
  return requestFailureOf(error, 200);
}
