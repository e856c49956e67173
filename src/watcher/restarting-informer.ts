/**
 * A client-node informer (list, then watch from the list's resourceVersion) that keeps going.
 * client-node's informer already resumes a watch that ends (an API server restart, the server's
 * timeout, or its own after 30 s without a byte) from its last resourceVersion and re-lists after
 * 410 Gone; on any other error (connection refused, 5xx, 403) it stops. This one restarts it then, with exponential backoff (reset once it has run quietly
 * for a minute); a restart resumes from the last resourceVersion, or re-lists when that is gone.
 * No polling: between events nothing is sent but the watch itself. It lists a page at a time, and
 * every object, listed or brought by a watch event, passes through `transform` before the cache
 * holds it (client-go's informer transform).
 */
import {
  ListWatch,
  Watch,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { pagedList, type ListPage } from '../kube/paged-list.js';

export interface RestartingInformerOptions<T extends KubernetesObject> {
  kubeConfig: KubeConfig;
  /** The watch path, e.g. /apis/serving.kserve.io/v1beta1/namespaces/default/inferenceservices */
  path: string;
  /** One page of the list (the informer asks for the next until there is no continue token). */
  listPage: ListPage<T>;
  /** What the cache keeps of each object (default: all of it); it may change the object in place. */
  transform?(object: T): T;
  onAdd(object: T): void;
  onUpdate(object: T): void;
  onDelete(object: T): void;
  onError?(error: unknown, retryInMs: number): void;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

export class RestartingInformer<T extends KubernetesObject> {
  private readonly informer: ListWatch<T>;
  private stopped = true;
  private failures = 0;
  private lastFailureAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private syncedResolve: (() => void) | null = null;
  /** Resolves once the first list has been applied (and stays resolved). */
  readonly synced: Promise<void>;
  /** Restarts after errors so far (tests and metrics). */
  restarts = 0;

  constructor(private readonly options: RestartingInformerOptions<T>) {
    this.synced = new Promise((resolve) => {
      this.syncedResolve = resolve;
    });
    const transform = options.transform ?? ((object: T) => object);
    this.informer = new ListWatch<T>(
      options.path,
      new TransformingWatch(options.kubeConfig, transform),
      () => this.list(transform),
      false,
    );
    this.informer.on('add', (o) => options.onAdd(o));
    this.informer.on('update', (o) => options.onUpdate(o));
    this.informer.on('delete', (o) => options.onDelete(o));
    this.informer.on('error', (e) => this.failed(e));
  }

  private async list(transform: (object: T) => T): Promise<KubernetesListObject<T>> {
    const list = await pagedList(this.options.listPage, transform);
    // The informer applies the list synchronously once this resolves, before the next macrotask.
    setImmediate(() => {
      this.syncedResolve?.();
      this.syncedResolve = null;
    });
    return list;
  }

  /** Starts listing and watching; errors are retried in the background. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.informer.stop();
  }

  /** One object held now (undefined when the informer does not hold it). */
  get(name: string, namespace?: string): T | undefined {
    return this.informer.get(name, namespace);
  }

  /** The objects held now. */
  objects(): readonly T[] {
    return this.informer.list();
  }

  private run(): void {
    this.informer.start().catch((e: unknown) => this.failed(e));
  }

  private failed(error: unknown): void {
    if (this.stopped || this.timer) return;
    const now = Date.now();
    if (now - this.lastFailureAt > 60_000) this.failures = 0;
    this.lastFailureAt = now;
    const initial = this.options.initialBackoffMs ?? 500;
    const delay = Math.min(this.options.maxBackoffMs ?? 30_000, initial * 2 ** this.failures);
    this.failures += 1;
    this.options.onError?.(error, delay);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      this.restarts += 1;
      this.run();
    }, delay);
  }
}

const OBJECT_EVENTS = new Set(['ADDED', 'MODIFIED', 'DELETED']);

/** client-node's Watch, with the object of each ADDED / MODIFIED / DELETED event transformed before the cache sees it. */
class TransformingWatch<T extends KubernetesObject> extends Watch {
  constructor(
    config: KubeConfig,
    private readonly transform: (object: T) => T,
  ) {
    super(config);
  }

  override watch(...[path, queryParams, callback, done]: Parameters<Watch['watch']>): ReturnType<Watch['watch']> {
    return super.watch(
      path,
      queryParams,
      (phase, object, event) =>
        callback(phase, OBJECT_EVENTS.has(phase) && object ? this.transform(object as T) : object, event),
      done,
    );
  }
}
