/**
 * Watches InferenceServices: one informer per served API version (serving.kserve.io/v1beta1,
 * serving.kubeflow.org/v1beta1, /v1alpha2) and per configured namespace (or cluster-wide when every
 * namespace is allowed). The same namespace/name under two versions (KFServing serves v1alpha2 and
 * v1beta1 of one object) is one InferenceService: the most preferred version's reading wins.
 * Reports changes that matter to incidents (`onChange`) and disappearances (`onDelete`).
 *
 * RBAC: inferenceservices list / watch (each group), in each watched namespace.
 */
import {
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node';
import type { CustomResource } from '../kube/resources.js';
import { isvcStateOf, sameIsvcState, type IsvcState } from './isvc-state.js';
import { RestartingInformer } from './restarting-informer.js';
import { servedIsvcVersions } from './served-isvc-versions.js';
import { trimCachedObject } from './trim-cached-object.js';

export interface IsvcWatcherOptions {
  kubeConfig: KubeConfig;
  /** null: every namespace (one cluster-wide informer per version). */
  namespaces: string[] | null;
  onChange(state: IsvcState, previous: IsvcState | null): void;
  onDelete(previous: IsvcState): void;
  warn?(message: string): void;
  /** Default: discovery. */
  versions?: CustomResource[];
  initialBackoffMs?: number;
}

export class IsvcWatcher {
  /** Per version (index: its rank in preference order), key → that version's reading. */
  private readings: Array<Map<string, IsvcState>> = [];
  private readonly effective = new Map<string, IsvcState>();
  private informers: RestartingInformer<KubernetesObject>[] = [];
  /** Each informer's version (its rank in preference order) and namespace (null: cluster-wide). */
  private readonly sources = new Map<
    RestartingInformer<KubernetesObject>,
    { rank: number; resource: CustomResource; namespace: string | null }
  >();

  constructor(private readonly options: IsvcWatcherOptions) {}

  /** Starts the informers; resolves once each has applied its first list. */
  async start(): Promise<void> {
    const { kubeConfig } = this.options;
    const versions = this.options.versions ?? (await servedIsvcVersions(kubeConfig, this.options.warn));
    const custom = kubeConfig.makeApiClient(CustomObjectsApi);
    const scopes: Array<string | null> = this.options.namespaces ?? [null];
    this.readings = versions.map(() => new Map());
    versions.forEach((r, rank) => {
      const shared = { apiVersion: `${r.group}/${r.version}`, kind: r.kind };
      for (const namespace of scopes) {
        const base = `/apis/${r.group}/${r.version}`;
        const informer = new RestartingInformer<KubernetesObject>({
          kubeConfig,
          path: namespace ? `${base}/namespaces/${namespace}/${r.plural}` : `${base}/${r.plural}`,
          listPage: (page) =>
            (namespace
              ? custom.listNamespacedCustomObject({
                  group: r.group,
                  version: r.version,
                  namespace,
                  plural: r.plural,
                  ...page,
                })
              : custom.listClusterCustomObject({
                  group: r.group,
                  version: r.version,
                  plural: r.plural,
                  ...page,
                })) as Promise<KubernetesListObject<KubernetesObject>>,
          transform: (o) => trimCachedObject(o, shared),
          onAdd: (o) => this.saw(rank, o),
          onUpdate: (o) => this.saw(rank, o),
          onDelete: (o) => this.gone(rank, o),
          onError: (e, ms) =>
            this.options.warn?.(
              `watch ${r.group}/${r.version} ${namespace ?? '(all namespaces)'}: ${describe(e)}; retrying in ${ms} ms`,
            ),
          ...(this.options.initialBackoffMs ? { initialBackoffMs: this.options.initialBackoffMs } : {}),
        });
        this.informers.push(informer);
        this.sources.set(informer, { rank, resource: r, namespace });
      }
    });
    for (const i of this.informers) i.start();
    await Promise.all(this.informers.map((i) => i.synced));
  }

  async stop(): Promise<void> {
    const informers = this.informers;
    this.informers = [];
    await Promise.all(informers.map((i) => i.stop()));
    this.sources.clear();
    this.readings = [];
    this.effective.clear();
  }

  get(key: string): IsvcState | undefined {
    return this.effective.get(key);
  }

  /**
   * The whole object as the informer holds it, under the version whose reading is in effect: a
   * diagnosis in this process starts from it instead of asking the API server again.
   */
  object(namespace: string, name: string): { resource: CustomResource; object: KubernetesObject } | undefined {
    const state = this.effective.get(`${namespace}/${name}`);
    if (!state) return undefined;
    const rank = this.readings.findIndex((byKey) => byKey.has(state.key));
    for (const [informer, source] of this.sources) {
      if (source.rank !== rank || (source.namespace !== null && source.namespace !== namespace)) continue;
      const object = informer.get(name, namespace);
      if (object) return { resource: source.resource, object };
    }
    return undefined;
  }

  all(): IterableIterator<IsvcState> {
    return this.effective.values();
  }

  get size(): number {
    return this.effective.size;
  }

  /** Informer restarts after errors, over all informers. */
  get restarts(): number {
    return this.informers.reduce((n, i) => n + i.restarts, 0);
  }

  private saw(rank: number, object: KubernetesObject): void {
    const state = isvcStateOf(object as Parameters<typeof isvcStateOf>[0]);
    if (!state) return;
    this.readings[rank]?.set(state.key, state);
    this.settle(state.key);
  }

  private gone(rank: number, object: KubernetesObject): void {
    const state = isvcStateOf(object as Parameters<typeof isvcStateOf>[0]);
    if (!state || !this.readings[rank]?.delete(state.key)) return;
    this.settle(state.key);
  }

  /** The most preferred version's reading is in effect. */
  private settle(key: string): void {
    const previous = this.effective.get(key) ?? null;
    let best: IsvcState | undefined;
    for (const byKey of this.readings) {
      best = byKey.get(key);
      if (best) break;
    }
    if (!best) {
      this.effective.delete(key);
      if (previous) this.options.onDelete(previous);
      return;
    }
    this.effective.set(key, best);
    if (!previous || !sameIsvcState(previous, best)) this.options.onChange(best, previous);
  }
}

function describe(error: unknown): string {
  const e = error as { statusCode?: number; code?: unknown; message?: string };
  if (typeof e?.statusCode === 'number') return `HTTP ${e.statusCode}`;
  if (typeof e?.code === 'number') return `HTTP ${e.code}`;
  return e?.message?.split('\n')[0] ?? String(error);
}
