/**
 * The incident jobs (BullMQ, a queue of their own next to the cluster job queue, on the same Redis):
 *   open     diagnose an InferenceService that stayed unready, then open an incident, join a
 *            group, or (already in one) report a changed root cause; one at a time per service
 *   recover  a member became Ready (or was deleted)
 *   refresh  post the pending notes and update the root message; coalesced per incident
 * The watcher only adds jobs; workers (any replica) post, each job once.
 */
import { dropLateConnectionErrors } from '../queue/late-connection-errors.js';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { dns1123Label as isvcName } from '../core/names.js';
import { RecoveringQueue } from '../queue/recovering-queue.js';

export const incidentJobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('open'), namespace: isvcName, name: isvcName, unreadySince: z.number() }),
  z.object({
    kind: z.literal('recover'),
    namespace: isvcName,
    name: isvcName,
    by: z.enum(['ready', 'deleted']),
    at: z.number(),
  }),
  z.object({ kind: z.literal('refresh'), incidentId: z.string().min(1) }),
]);
export type IncidentJob = z.infer<typeof incidentJobSchema>;

export interface IncidentQueueOptions {
  connection: Redis;
  /** BullMQ queue name, e.g. "isvc-doctor-diagnosis-incidents". */
  name: string;
  prefix: string;
  /** Joins and recoveries within this long are posted together. */
  refreshDelayMs: number;
  attempts?: number;
  backoffMs?: number;
}

const id = (...parts: string[]) => parts.join('__');

export class IncidentQueue {
  private readonly producer: RecoveringQueue<IncidentJob>;

  constructor(private readonly options: IncidentQueueOptions) {
    this.producer = new RecoveringQueue(() => {
      const queue = new Queue<IncidentJob>(options.name, {
        connection: options.connection,
        prefix: options.prefix,
        defaultJobOptions: {
          attempts: options.attempts ?? 5,
          backoff: { type: 'exponential', delay: options.backoffMs ?? 1000 },
          removeOnComplete: { count: 2000, age: 24 * 3600 },
          removeOnFail: { count: 2000, age: 7 * 24 * 3600 },
        },
      });
      // connection errors are logged by the connection's owner (redis-connection.ts)
      queue.on('error', () => undefined);
      return dropLateConnectionErrors(queue);
    }, 'incident queue');
  }

  /** The BullMQ Queue (a new one after its setup on Redis failed: recovering-queue.ts). */
  get queue(): Queue<IncidentJob> {
    return this.producer.current;
  }

  /** At most one open job per service waits or runs at a time. */
  async open(target: { namespace: string; name: string }, unreadySince: number): Promise<void> {
    await this.queue.add(
      'open',
      { kind: 'open', ...target, unreadySince },
      { deduplication: { id: id('open', target.namespace, target.name) } },
    );
  }

  async recover(target: { namespace: string; name: string }, by: 'ready' | 'deleted', at: number): Promise<void> {
    await this.queue.add('recover', { kind: 'recover', ...target, by, at });
  }

  /** Refreshes added within refreshDelayMs of each other are one job. */
  async refresh(incidentId: string, delayMs = this.options.refreshDelayMs): Promise<void> {
    await this.queue.add(
      'refresh',
      { kind: 'refresh', incidentId },
      { delay: delayMs, deduplication: { id: id('refresh', incidentId), ttl: Math.max(1, delayMs) } },
    );
  }

  async close(): Promise<void> {
    await this.producer.close().catch(() => undefined);
  }
}
