/**
 * The producer side of the cluster job queue (BullMQ on Redis): the jobs a person's request asks of
 * one cluster's workers, of the kinds registered in jobs/index.ts (diagnose, status, remediate, and
 * in multi-cluster the clicks and commands the web process hands to a cluster's agent). An add takes
 * its options from its kind (the job id that makes it idempotent, attempts, retention). Diagnoses
 * are one per InferenceService at a time: a second request while one is queued or running finds the
 * running job and joins it instead of adding a second (`running`, `claim`, `join`). Every Redis call
 * made on behalf of a Slack request waits a few seconds for a connection that is away (a Redis restart
 * or failover), then has a deadline, and fails as QueueUnavailableError.
 *
 * The queue's Redis name is the config's `queue.name` (default "isvc-doctor-diagnosis", the name it
 * has had since it carried diagnoses alone): the stores filed under it (proposals, audit log,
 * incidents, mutes, heartbeats) and jobs queued by an earlier version stay where they are.
 */
import { dropLateConnectionErrors } from './late-connection-errors.js';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { settledWithin } from '../core/bounded.js';
import type { TargetRef } from '../core/target-ref.js';
import { diagnosisDedupId, type Subscriber } from './job-data.js';
import type { DiagnoseJobData } from './jobs/diagnose-job.js';
import { JOB_KINDS, type JobData, type JobKindName } from './jobs/index.js';
import type { JobKind } from './jobs/job-kind.js';
import { QueueUnavailableError, withQueueDeadline } from './queue-errors.js';
import { RecoveringQueue } from './recovering-queue.js';
import { createRedisConnection, type ConnectionLogger } from './redis-connection.js';
import { redisReady } from './redis-ready.js';
import { SubscriberStore } from './subscriber-store.js';

export interface ClusterJobQueueOptions {
  redisUrl: string;
  /** BullMQ queue name (letters, digits, - and _). */
  name: string;
  /** BullMQ key prefix, default "bull". */
  prefix?: string;
  attempts: number;
  backoffMs: number;
  /** Deadline for each Redis call made while answering Slack. */
  opTimeoutMs?: number;
  /**
   * How long a call waits for a connection that is away (Redis restarting, a failover) before it
   * fails as QueueUnavailableError (default 8000; 0: fail at once).
   */
  holdMs?: number;
  logger?: ConnectionLogger;
}

export interface RunningDiagnosis {
  jobId: string;
  /** Every thread waiting on it, the first requester's first. */
  subscribers: Subscriber[];
}

/** How long a thread's root is known as a verdict (a week: later re-diagnoses start a new thread's root). */
const VERDICT_ROOT_TTL_S = 7 * 24 * 3600;

/** How long a request's claim on an InferenceService holds when its process dies before releasing it. */
export const CLAIM_TTL_MS = 5000;

/** How long a request waits for Redis to come back (a restart takes a few seconds, ioredis retries every 2 s at most). */
export const DEFAULT_HOLD_MS = 8000;

export class ClusterJobQueue {
  private readonly producer: RecoveringQueue<JobData>;
  readonly store: SubscriberStore;
  readonly connection: Redis;
  private readonly timeoutMs: number;
  private readonly holdMs: number;

  constructor(private readonly options: ClusterJobQueueOptions) {
    this.connection = createRedisConnection(options.redisUrl, 'producer', options.logger);
    const prefix = options.prefix ?? 'bull';
    this.producer = new RecoveringQueue(
      () => {
        const queue = new Queue<JobData>(options.name, {
          connection: this.connection,
          prefix,
          defaultJobOptions: {
            attempts: options.attempts,
            backoff: { type: 'exponential', delay: options.backoffMs },
            removeOnComplete: { count: 1000, age: 7 * 24 * 3600 },
            removeOnFail: { count: 1000, age: 7 * 24 * 3600 },
          },
        });
        queue.on('error', (error) => options.logger?.warn(`queue: ${error.message}`));
        return dropLateConnectionErrors(queue);
      },
      'queue',
      options.logger,
    );
    this.store = new SubscriberStore(this.connection, `${prefix}:${options.name}`);
    this.timeoutMs = options.opTimeoutMs ?? 1500;
    this.holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
  }

  /** The BullMQ Queue (a new one after its setup on Redis failed: recovering-queue.ts). */
  get queue(): Queue<JobData> {
    return this.producer.current;
  }

  get name(): string {
    return this.options.name;
  }

  /** The job diagnosing this InferenceService now (queued, running or waiting to retry), with its threads. */
  async running(target: TargetRef): Promise<RunningDiagnosis | null> {
    return this.op('find running diagnosis', async () => {
      const jobId = await this.queue.getDeduplicationJobId(diagnosisDedupId(target));
      if (!jobId) return null;
      const job = await this.queue.getJob(jobId);
      if (!job) return null;
      const first = (job.data as DiagnoseJobData).subscriber;
      const joined = await this.store.list(jobId);
      return { jobId, subscribers: first ? [first, ...joined] : joined };
    });
  }

  /**
   * Adds a job with its kind's options; adding the same request's job again adds nothing (one job
   * per id). `created: false`: another request's diagnosis of the same InferenceService is queued
   * or running (its deduplication id), so join `jobId` instead.
   */
  async add(data: JobData): Promise<{ jobId: string; created: boolean }> {
    const kind = JOB_KINDS[data.kind] as JobKind<JobKindName, JobData, never, unknown>;
    const opts = kind.options(data);
    const job = await this.op(`add ${data.kind} job`, () => this.queue.add(data.kind, data, opts));
    return { jobId: job.id ?? opts.jobId ?? '', created: opts.jobId === undefined || job.id === opts.jobId };
  }

  /**
   * A short lock per InferenceService around "post the root message, add the job", so that requests
   * arriving together give one root message and join it, rather than one root each. Expires by itself.
   */
  async claim(target: TargetRef, owner: string, ttlMs = CLAIM_TTL_MS): Promise<boolean> {
    const key = `${this.queue.opts.prefix ?? 'bull'}:${this.options.name}:claim:${diagnosisDedupId(target)}`;
    return this.op('claim', async () => (await this.connection.set(key, owner, 'PX', ttlMs, 'NX')) === 'OK');
  }

  async release(target: TargetRef, owner: string): Promise<void> {
    const key = `${this.queue.opts.prefix ?? 'bull'}:${this.options.name}:claim:${diagnosisDedupId(target)}`;
    await this.connection
      .eval(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
        1,
        key,
        owner,
      )
      .catch(() => undefined);
  }

  /**
   * Remembers that a thread's root message shows this InferenceService's verdict, so that a
   * diagnosis asked again in that thread (Re-diagnose, a mention) brings the root up to date too.
   */
  async rememberVerdictRoot(channel: string, rootTs: string, target: TargetRef): Promise<void> {
    await this.op('remember verdict root', () =>
      this.connection.set(this.verdictKey(channel, rootTs), diagnosisDedupId(target), 'EX', VERDICT_ROOT_TTL_S),
    );
  }

  /** True when the thread's root message is this InferenceService's verdict (see rememberVerdictRoot). */
  async isVerdictRoot(channel: string, threadTs: string, target: TargetRef): Promise<boolean> {
    return this.op(
      'find verdict root',
      async () => (await this.connection.get(this.verdictKey(channel, threadTs))) === diagnosisDedupId(target),
    );
  }

  private verdictKey(channel: string, ts: string): string {
    return `${this.queue.opts.prefix ?? 'bull'}:${this.options.name}:verdict-root:${channel}:${ts}`;
  }

  /** Adds a thread to a running job; false when that job is already posting its answers. */
  async join(jobId: string, subscriber: Subscriber): Promise<boolean> {
    return this.op('join running diagnosis', () => this.store.join(jobId, subscriber));
  }

  /**
   * A Redis call on behalf of a request: held while the connection is away (up to holdMs), then
   * run with its deadline; fails as QueueUnavailableError.
   */
  private async op<T>(what: string, call: () => Promise<T>): Promise<T> {
    if (this.connection.status !== 'ready' && this.holdMs > 0)
      await redisReady(this.connection, this.holdMs).catch(() => {
        throw new QueueUnavailableError(`${what}: Redis did not come back within ${this.holdMs} ms`);
      });
    return withQueueDeadline(what, this.timeoutMs, call);
  }

  /** For /readyz: Redis answers now (not held). */
  async ping(): Promise<void> {
    await withQueueDeadline('ping', this.timeoutMs, () => this.connection.ping());
  }

  /** Bounded: with Redis gone BullMQ's close would wait for it forever. */
  async close(): Promise<void> {
    await settledWithin(this.producer.close(), 2000);
    this.connection.disconnect();
  }
}
