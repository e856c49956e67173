/**
 * The producer side of the diagnosis queue (BullMQ on Redis). One job per InferenceService at a
 * time: jobs carry a deduplication id per namespace/name, so a second request while one is queued or
 * running gets the running job's id back and joins it instead of adding a second job. Every Redis
 * call made on behalf of a Slack request has a deadline and fails as QueueUnavailableError.
 */
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { settledWithin } from '../core/bounded.js';
import type { TargetRef } from '../core/target-ref.js';
import { diagnosisDedupId, newDiagnosisJobId, type ClickJobData, type CommandJobData, type DiagnoseJobData, type JobData, type RemediateJobData, type StatusJobData, type Subscriber } from './job-data.js';
import { withQueueDeadline } from './queue-errors.js';
import { createRedisConnection, type ConnectionLogger } from './redis-connection.js';
import { SubscriberStore } from './subscriber-store.js';

export interface DiagnosisQueueOptions {
  redisUrl: string;
  /** BullMQ queue name (letters, digits, - and _). */
  name: string;
  /** BullMQ key prefix, default "bull". */
  prefix?: string;
  attempts: number;
  backoffMs: number;
  /** Deadline for each Redis call made while answering Slack. */
  opTimeoutMs?: number;
  logger?: ConnectionLogger;
}

export interface RunningDiagnosis {
  jobId: string;
  /** Every thread waiting on it, the first requester's first. */
  subscribers: Subscriber[];
}

/** How long a request's claim on an InferenceService holds when its process dies before releasing it. */
export const CLAIM_TTL_MS = 5000;

export class DiagnosisQueue {
  readonly queue: Queue<JobData>;
  readonly store: SubscriberStore;
  readonly connection: Redis;
  private readonly timeoutMs: number;

  constructor(private readonly options: DiagnosisQueueOptions) {
    this.connection = createRedisConnection(options.redisUrl, 'producer', options.logger);
    const prefix = options.prefix ?? 'bull';
    this.queue = new Queue<JobData>(options.name, {
      connection: this.connection,
      prefix,
      defaultJobOptions: {
        attempts: options.attempts,
        backoff: { type: 'exponential', delay: options.backoffMs },
        removeOnComplete: { count: 1000, age: 7 * 24 * 3600 },
        removeOnFail: { count: 1000, age: 7 * 24 * 3600 },
      },
    });
    this.queue.on('error', (error) => options.logger?.warn(`queue: ${error.message}`));
    this.store = new SubscriberStore(this.connection, `${prefix}:${options.name}`);
    this.timeoutMs = options.opTimeoutMs ?? 1500;
  }

  get name(): string {
    return this.options.name;
  }

  /** The job diagnosing this InferenceService now (queued, running or waiting to retry), with its threads. */
  async running(target: TargetRef): Promise<RunningDiagnosis | null> {
    return withQueueDeadline('find running diagnosis', this.timeoutMs, async () => {
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
   * Adds a diagnosis job for the subscriber's thread, or finds the one already there.
   * `created: false` means another request won the race: join `jobId` instead.
   */
  async add(target: TargetRef, subscriber: Subscriber, requestId?: string, now = new Date()): Promise<{ jobId: string; created: boolean }> {
    // one request, one job: a request run again after a crash adds nothing (BullMQ keeps one job per id)
    const jobId = requestId ? `${diagnosisDedupId(target)}__${requestId}` : newDiagnosisJobId(target, now.getTime());
    const data: DiagnoseJobData = { kind: 'diagnose', target: { namespace: target.namespace, name: target.name }, subscriber, requestedAt: now.toISOString(), ...(requestId ? { requestId } : {}) };
    const opts: JobsOptions = { jobId, deduplication: { id: diagnosisDedupId(target) } };
    const job = await withQueueDeadline('add diagnosis job', this.timeoutMs, () => this.queue.add('diagnose', data, opts));
    return { jobId: job.id ?? jobId, created: job.id === jobId };
  }

  /**
   * A short lock per InferenceService around "post the root message, add the job", so that requests
   * arriving together give one root message and join it, rather than one root each. Expires by itself.
   */
  async claim(target: TargetRef, owner: string, ttlMs = CLAIM_TTL_MS): Promise<boolean> {
    const key = `${this.queue.opts.prefix ?? 'bull'}:${this.options.name}:claim:${diagnosisDedupId(target)}`;
    return withQueueDeadline('claim', this.timeoutMs, async () => (await this.connection.set(key, owner, 'PX', ttlMs, 'NX')) === 'OK');
  }

  async release(target: TargetRef, owner: string): Promise<void> {
    const key = `${this.queue.opts.prefix ?? 'bull'}:${this.options.name}:claim:${diagnosisDedupId(target)}`;
    await this.connection
      .eval("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, key, owner)
      .catch(() => undefined);
  }

  /** Adds a thread to a running job; false when that job is already posting its answers. */
  async join(jobId: string, subscriber: Subscriber): Promise<boolean> {
    return withQueueDeadline('join running diagnosis', this.timeoutMs, () => this.store.join(jobId, subscriber));
  }

  async addStatus(data: StatusJobData): Promise<string> {
    const job = await withQueueDeadline('add status job', this.timeoutMs, () => this.queue.add('status', data, { attempts: 2, ...(data.requestId ? { jobId: `status__${data.namespace}__${data.requestId}` } : {}) }));
    return job.id ?? '';
  }

  /** The apply job of an approved proposal: jobId = proposal id, so adding it twice is one job. */
  async addRemediation(data: RemediateJobData): Promise<void> {
    await this.queue.add('remediate', data, { jobId: data.proposalId, attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { age: 30 * 24 * 3600 }, removeOnFail: { age: 30 * 24 * 3600 } });
  }

  /** Multi-cluster: a click or a command for this cluster's agent. */
  async addForwarded(data: ClickJobData | CommandJobData): Promise<void> {
    await withQueueDeadline('add forwarded job', this.timeoutMs, () => this.queue.add(data.kind, data, { attempts: 2 }));
  }

  /** For /readyz. */
  async ping(): Promise<void> {
    await withQueueDeadline('ping', this.timeoutMs, () => this.connection.ping());
  }

  /** Bounded: with Redis gone BullMQ's close would wait for it forever. */
  async close(): Promise<void> {
    await settledWithin(this.queue.close(), 2000);
    this.connection.disconnect();
  }
}
