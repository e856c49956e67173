/**
 * The watcher's decisions, fed by the informers: an InferenceService that turns unready gets a
 * timer for `unreadyAfter` (from the earlier of its Ready condition's lastTransitionTime and when we
 * first saw it unready, kept in Redis so a restart does not start the clock again); a service that
 * turns Ready before the timer fires posts nothing (flapping). When the timer fires an `open` job is
 * queued; while a service stays unready in an incident, a change of its Ready reason / message or of
 * its spec queues another (the worker reports a new root cause, if any). A service that becomes
 * Ready, or is deleted, while in an incident gets a `recover` job. Changes of one service are
 * handled one after another; different services concurrently. `reconcile()` after the first lists
 * closes what changed while no watcher ran.
 */
import { errorMessage } from '../core/error-message.js';
import type { IncidentStore } from '../incidents/incident-store.js';
import type { IsvcState } from './isvc-state.js';

export interface IncidentJobSink {
  open(target: { namespace: string; name: string }, unreadySince: number): Promise<void>;
  recover(target: { namespace: string; name: string }, by: 'ready' | 'deleted', at: number): Promise<void>;
}

export interface UnreadyTrackerOptions {
  store: Pick<IncidentStore, 'markUnready' | 'markReady' | 'unreadyAll' | 'membersAll'>;
  jobs: IncidentJobSink;
  unreadyAfterMs: number;
  /** Whether the namespace has an alerts channel (others are not tracked). */
  watched(namespace: string): boolean;
  now?(): number;
  warn?(message: string): void;
}

export class UnreadyTracker {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Mirror of the Redis unready marks. */
  private unready = new Map<string, number>();
  /** Services an open job was queued for (or that are in an incident). */
  private readonly armed = new Set<string>();
  private readonly chains = new Map<string, Promise<void>>();
  /** Services whose recovery has been handled since load() (reconcile leaves them alone). */
  private readonly settled = new Set<string>();
  private stopped = false;

  constructor(private readonly options: UnreadyTrackerOptions) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Loads the marks and incident memberships a previous leader left. */
  async load(): Promise<void> {
    this.unready = await this.options.store.unreadyAll();
    for (const key of (await this.options.store.membersAll()).keys()) this.armed.add(key);
  }

  /** Timers pending (tests, bench). */
  get pendingTimers(): number {
    return this.timers.size;
  }

  onChange(state: IsvcState, previous: IsvcState | null): void {
    if (!this.options.watched(state.namespace)) return;
    this.serially(state.key, () => (state.ready ? this.becameReady(state, 'ready') : this.unreadyNow(state, previous)));
  }

  onDelete(previous: IsvcState): void {
    if (!this.options.watched(previous.namespace)) return;
    this.serially(previous.key, () => this.becameReady(previous, 'deleted'));
  }

  /** After the first lists: services that recovered or went away while no watcher ran. */
  async reconcile(current: (key: string) => IsvcState | undefined): Promise<void> {
    const members = await this.options.store.membersAll();
    const keys = new Set([...this.unready.keys(), ...members.keys()]);
    for (const key of keys) {
      const state = current(key);
      if ((state && !state.ready) || this.settled.has(key)) continue;
      const [namespace, name] = key.split('/') as [string, string];
      const seen: IsvcState = state ?? {
        key,
        namespace,
        name,
        apiVersion: '',
        ready: true,
        reason: '',
        message: '',
        transitionAt: null,
        generation: 0,
      };
      this.serially(key, () => this.becameReady(seen, state ? 'ready' : 'deleted', members.has(key)));
    }
    await Promise.all(this.chains.values());
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** Resolves when every queued change has been handled. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all(this.chains.values());
  }

  private serially(key: string, work: () => Promise<void>): void {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous
      .then(() => (this.stopped ? undefined : work()))
      .catch((e: unknown) => this.options.warn?.(`incident tracking of ${key}: ${errorMessage(e)}`));
    this.chains.set(key, next);
    void next.finally(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
  }

  private async unreadyNow(state: IsvcState, previous: IsvcState | null): Promise<void> {
    const now = this.now();
    let since = this.unready.get(state.key);
    this.settled.delete(state.key);
    if (since === undefined) {
      since = await this.options.store.markUnready(state.key, now);
      this.unready.set(state.key, since);
    }
    if (this.armed.has(state.key)) {
      const changed =
        previous !== null &&
        !previous.ready &&
        (previous.reason !== state.reason ||
          previous.message !== state.message ||
          previous.generation !== state.generation);
      if (changed) await this.options.jobs.open(state, since);
      return;
    }
    if (this.timers.has(state.key)) return;
    const transition = state.transitionAt !== null && state.transitionAt <= now ? state.transitionAt : Infinity;
    const start = Math.min(since, transition);
    const timer = setTimeout(
      () => {
        this.timers.delete(state.key);
        this.serially(state.key, () => this.fire(state, start));
      },
      Math.max(0, start + this.options.unreadyAfterMs - now),
    );
    this.timers.set(state.key, timer);
  }

  private async fire(state: IsvcState, since: number): Promise<void> {
    if (!this.unready.has(state.key)) return;
    this.armed.add(state.key);
    await this.options.jobs.open(state, since);
  }

  private async becameReady(state: IsvcState, by: 'ready' | 'deleted', knownMember = false): Promise<void> {
    const timer = this.timers.get(state.key);
    if (timer) clearTimeout(timer);
    this.timers.delete(state.key);
    const wasTracked = this.unready.delete(state.key) || this.armed.has(state.key) || knownMember;
    this.armed.delete(state.key);
    if (!wasTracked) return;
    this.settled.add(state.key);
    const incidentId = await this.options.store.markReady(state.key);
    if (incidentId) await this.options.jobs.recover(state, by, this.now());
  }
}
