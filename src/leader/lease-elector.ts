/**
 * Leader election on a Kubernetes Lease (coordination.k8s.io/v1), as client-go's leaderelection
 * does it: read the Lease; create it when absent; renew it (replace with its resourceVersion) while
 * we hold it; take it over when its holder has not renewed it for leaseDurationSeconds, as measured
 * on our own clock from when we last saw the record change (no trust in other nodes' clocks). Every
 * write carries the resourceVersion it read, so two candidates never both win: the loser gets 409.
 * `stop()` releases the Lease (holder cleared) so another replica takes over at once.
 *
 * RBAC: leases get / create / update in the Lease's namespace.
 */
import { CoordinationV1Api, V1MicroTime, type KubeConfig, type V1Lease } from '@kubernetes/client-node';
import { errorMessage } from '../core/error-message.js';

export interface LeaseElectorOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  name: string;
  /** Unique per process, e.g. the pod name plus a random suffix. */
  identity: string;
  /** How long a holder that stopped renewing keeps the Lease (rounded up to whole seconds in the Lease). */
  leaseDurationMs: number;
  /** Renew (or retry) every this often; default a third of the lease duration. */
  retryMs?: number;
  onStartedLeading(): void | Promise<void>;
  onStoppedLeading(): void | Promise<void>;
  warn?(message: string): void;
}

/** What this elector knows of the Lease record the last time it read it. */
interface Observed {
  key: string;
  at: number;
}

export class LeaseElector {
  private readonly api: CoordinationV1Api;
  private timer: NodeJS.Timeout | null = null;
  private leading = false;
  private stopped = true;
  private observed: Observed | null = null;
  private loop: Promise<void> = Promise.resolve();

  constructor(private readonly options: LeaseElectorOptions) {
    this.api = options.kubeConfig.makeApiClient(CoordinationV1Api);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops campaigning; a leader releases the Lease and steps down. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.loop;
    if (this.leading) {
      await this.release().catch((e: unknown) => this.warn(`release: ${messageOf(e)}`));
      await this.stepDown();
    }
  }

  private get retryMs(): number {
    return this.options.retryMs ?? Math.max(100, Math.floor(this.options.leaseDurationMs / 3));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.loop = this.tick();
    }, ms);
  }

  private async tick(): Promise<void> {
    try {
      const won = await this.tryAcquireOrRenew();
      if (won && !this.leading && !this.stopped) {
        this.leading = true;
        await this.options.onStartedLeading();
      } else if (!won && this.leading) await this.stepDown();
    } catch (error) {
      this.warn(`lease ${this.options.namespace}/${this.options.name}: ${messageOf(error)}`);
      // Could not renew: keep leading only while our last renewal is surely still valid.
      if (this.leading && this.observed && Date.now() - this.observed.at > this.options.leaseDurationMs - this.retryMs)
        await this.stepDown();
    }
    this.schedule(this.retryMs);
  }

  private async stepDown(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    await Promise.resolve(this.options.onStoppedLeading()).catch((e: unknown) =>
      this.warn(`on stopped leading: ${messageOf(e)}`),
    );
  }

  /** One round: true when we hold the Lease after it. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, name, identity } = this.options;
    const now = Date.now();
    let lease: V1Lease;
    try {
      lease = await this.api.readNamespacedLease({ namespace, name });
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      return this.write(() =>
        this.api.createNamespacedLease({
          namespace,
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name, namespace },
            spec: this.spec(0, true),
          },
        }),
      );
    }
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const key = `${holder}|${String(spec.renewTime ?? '')}|${lease.metadata?.resourceVersion ?? ''}`;
    if (!this.observed || this.observed.key !== key) this.observed = { key, at: now };
    const durationMs = (spec.leaseDurationSeconds ?? Math.ceil(this.options.leaseDurationMs / 1000)) * 1000;
    const expired = holder === '' || now - this.observed.at >= durationMs;
    if (holder !== identity && !expired) return false;
    const transitions = (spec.leaseTransitions ?? 0) + (holder === identity ? 0 : 1);
    const body: V1Lease = {
      ...lease,
      spec: {
        ...this.spec(transitions, holder !== identity),
        ...(holder === identity && spec.acquireTime ? { acquireTime: micro(spec.acquireTime) } : {}),
      },
    };
    return this.write(() => this.api.replaceNamespacedLease({ namespace, name, body }));
  }

  private spec(transitions: number, acquiring: boolean): NonNullable<V1Lease['spec']> {
    const now = new V1MicroTime();
    return {
      holderIdentity: this.options.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.options.leaseDurationMs / 1000)),
      renewTime: now,
      leaseTransitions: transitions,
      ...(acquiring ? { acquireTime: now } : {}),
    };
  }

  /** A create or replace: 409 (someone else wrote first) is a lost round, not an error. */
  private async write(op: () => Promise<V1Lease>): Promise<boolean> {
    try {
      const written = await op();
      this.observed = {
        key: `${this.options.identity}|${String(written.spec?.renewTime ?? '')}|${written.metadata?.resourceVersion ?? ''}`,
        at: Date.now(),
      };
      return true;
    } catch (error) {
      if (statusOf(error) === 409) return false;
      throw error;
    }
  }

  /** Clears the holder so that another candidate need not wait for the lease to expire. */
  private async release(): Promise<void> {
    const { namespace, name, identity } = this.options;
    const lease = await this.api.readNamespacedLease({ namespace, name });
    if (lease.spec?.holderIdentity !== identity) return;
    const body: V1Lease = {
      ...lease,
      spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: new V1MicroTime() },
    };
    if (body.spec?.acquireTime) body.spec.acquireTime = micro(body.spec.acquireTime);
    await this.api.replaceNamespacedLease({ namespace, name, body });
  }

  private warn(message: string): void {
    this.options.warn?.(message);
  }
}

/** A time read back from the API (a Date or a string, depending on the serializer) as a MicroTime again. */
function micro(value: unknown): V1MicroTime {
  return new V1MicroTime(new Date(value as string | Date).getTime());
}

function statusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

function messageOf(error: unknown): string {
  const status = statusOf(error);
  if (status) return `HTTP ${status}`;
  return errorMessage(error);
}
