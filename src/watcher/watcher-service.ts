/**
 * The unready-watcher of `serve` (roles `all` and `watcher`): campaigns for the Lease; while it
 * leads, it loads the incident state a previous leader left in Redis, starts the InferenceService
 * informers, feeds their changes to the UnreadyTracker and, once the first lists are in, reconciles
 * (closes incidents whose services recovered or went away meanwhile). When it loses the Lease it
 * stops watching at once; another replica carries on from Redis.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import { errorMessage } from '../core/error-message.js';
import type { IncidentStore } from '../incidents/incident-store.js';
import { redisReady } from '../queue/redis-ready.js';
import { LeaseElector } from '../leader/lease-elector.js';
import { IsvcWatcher } from './isvc-watcher.js';
import { UnreadyTracker, type IncidentJobSink } from './unready-tracker.js';

/** How long the watcher waits for its Redis connection before the attempt fails and is retried. */
const REDIS_READY_TIMEOUT_MS = 10_000;

export interface WatcherServiceOptions {
  kubeConfig: KubeConfig;
  namespaces: string[] | null;
  store: IncidentStore;
  jobs: IncidentJobSink;
  unreadyAfterMs: number;
  watched(namespace: string): boolean;
  lease: { namespace: string; name: string; durationMs: number; identity?: string };
  logger: { info(m: string): void; warn(m: string): void };
}

export interface RunningWatcher {
  readonly identity: string;
  isLeader(): boolean;
  /** While leading: the watcher and the tracker (tests, bench). */
  current(): { watcher: IsvcWatcher; tracker: UnreadyTracker } | null;
  /** An InferenceService as this replica's informers hold it (undefined when not leading or not held). */
  inferenceService(namespace: string, name: string): ReturnType<IsvcWatcher['object']>;
  /** Resolves once this replica leads and has reconciled. */
  leading(): Promise<void>;
  close(): Promise<void>;
}

export function startWatcherService(options: WatcherServiceOptions): RunningWatcher {
  const identity = options.lease.identity ?? `${hostname()}-${randomBytes(4).toString('hex')}`;
  let generation = 0;
  let active: { watcher: IsvcWatcher; tracker: UnreadyTracker } | null = null;
  let ready = false;
  const waiters: Array<() => void> = [];

  const stopActive = async () => {
    generation += 1;
    ready = false;
    const a = active;
    active = null;
    if (!a) return;
    a.tracker.stop();
    await a.watcher.stop();
  };

  const lead = async () => {
    const mine = ++generation;
    options.logger.info(
      `watcher: leading (lease ${options.lease.namespace}/${options.lease.name}, identity ${identity})`,
    );
    // the store's connection has no offline queue: reading it before it has connected fails
    await redisReady(options.store.redis, REDIS_READY_TIMEOUT_MS);
    if (mine !== generation) return;
    const tracker = new UnreadyTracker({
      store: options.store,
      jobs: options.jobs,
      unreadyAfterMs: options.unreadyAfterMs,
      watched: options.watched,
      warn: options.logger.warn,
    });
    await tracker.load();
    const watcher = new IsvcWatcher({
      kubeConfig: options.kubeConfig,
      namespaces: options.namespaces,
      onChange: (s, p) => tracker.onChange(s, p),
      onDelete: (p) => tracker.onDelete(p),
      warn: options.logger.warn,
    });
    if (mine !== generation) return;
    active = { watcher, tracker };
    await watcher.start();
    if (mine !== generation) return;
    await tracker.reconcile((key) => watcher.get(key));
    if (mine !== generation) return;
    ready = true;
    options.logger.info(`watcher: watching ${watcher.size} InferenceServices`);
    for (const w of waiters.splice(0)) w();
  };

  const elector = new LeaseElector({
    kubeConfig: options.kubeConfig,
    namespace: options.lease.namespace,
    name: options.lease.name,
    identity,
    leaseDurationMs: options.lease.durationMs,
    onStartedLeading: () => {
      const attempt = (delayMs: number): void => {
        lead().catch((e: unknown) => {
          options.logger.warn(`watcher: could not start (${errorMessage(e)}); retrying in ${delayMs} ms`);
          setTimeout(() => {
            if (elector.isLeader && !ready) void stopActive().then(() => attempt(Math.min(delayMs * 2, 30_000)));
          }, delayMs);
        });
      };
      attempt(1000);
    },
    onStoppedLeading: async () => {
      options.logger.info('watcher: lost the lease, stopped watching');
      await stopActive();
    },
    warn: options.logger.warn,
  });
  elector.start();

  return {
    identity,
    isLeader: () => elector.isLeader,
    current: () => active,
    inferenceService: (namespace, name) => (ready ? active?.watcher.object(namespace, name) : undefined),
    leading: () => (ready ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    close: async () => {
      await stopActive();
      await elector.stop();
    },
  };
}
