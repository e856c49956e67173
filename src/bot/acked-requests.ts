/**
 * What both front doors (HTTP: slack-receiver.ts, Socket Mode: socket-mode-receiver.ts) do with a
 * verified Slack request around its ack:
 * - before the ack, `take` writes it to the request inbox (durable hand-off) and drops a Slack retry
 *   of an Events API event already taken (its `event_id`, remembered in Redis for an hour on every
 *   replica, and in this process for the last 10,000);
 * - after the ack, the taken request is handed to Bolt (middleware, listeners) on a paced queue, a few
 *   at a time, in its post scope (a re-run does not post again) and with its request id; its inbox
 *   entry is removed once the listeners' work has run;
 * - a process that died holding entries has them run by the next process to look (request-inbox.ts).
 */
import { randomUUID } from 'node:crypto';
import type { App } from '@slack/bolt';
import { errorMessage } from '../core/error-message.js';
import type { Logger } from '../core/logger.js';
import { withPostScope } from '../core/post-scope.js';
import { createPostAckQueue, type PostAckQueue } from './post-ack-queue.js';
import type { InboxEntry, RequestInbox } from './request-inbox.js';

/** How many Events API event ids one process remembers (Slack's retries, also when Redis is down). */
const RECENT_EVENT_IDS = 10_000;

export interface AckedRequestsOptions {
  /** The durable hand-off (absent: requests are run from memory only). */
  inbox?: RequestInbox;
  /** Post-ack work: how many at once (default 8), how many may wait (default 2000). */
  concurrency?: number;
  maxPending?: number;
  logger: Logger;
  now?: () => number;
}

export interface SlackRetry {
  /** Slack's retry count (`X-Slack-Retry-Num`, Socket Mode's `retry_attempt`). */
  retryNum?: number;
  retryReason?: string;
}

/**
 * What to do with a verified request before acking it: `busy` (the queue is full: do not ack, Slack
 * tries again), `duplicate` (a retry of a request already taken: ack and drop), `taken` (ack, then `run`).
 */
export type Taken = { kind: 'busy' } | { kind: 'duplicate' } | { kind: 'taken'; run: () => void };

export class AckedRequests {
  private app: App | null = null;
  private readonly queue: PostAckQueue;
  private readonly recentEvents = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly options: AckedRequestsOptions) {
    this.now = options.now ?? Date.now;
    this.queue = createPostAckQueue({
      concurrency: options.concurrency ?? 8,
      maxPending: options.maxPending ?? 2000,
      onError: (e) => options.logger.warn(`after ack: ${errorMessage(e)}`),
    });
  }

  attach(app: App): void {
    this.app = app;
  }

  get full(): boolean {
    return this.queue.full;
  }

  /** Writes a verified request down before its ack (see Taken). */
  async take(body: Record<string, unknown>, retry: SlackRetry = {}): Promise<Taken> {
    if (this.queue.full) return { kind: 'busy' };
    const eventId = typeof body.event_id === 'string' ? body.event_id : undefined;
    if (eventId && this.recentEvents.has(eventId)) return this.duplicate(eventId, retry);
    const entry: InboxEntry = {
      id: randomUUID(),
      body,
      receivedAt: this.now(),
      ...(retry.retryNum !== undefined ? { retryNum: retry.retryNum } : {}),
      ...(retry.retryReason ? { retryReason: retry.retryReason.slice(0, 60) } : {}),
    };
    let durable = false;
    if (this.options.inbox) {
      try {
        if ((await this.options.inbox.record(entry, eventId)) === 'duplicate')
          return this.duplicate(eventId ?? '', retry);
        durable = true;
      } catch (error) {
        // Redis is down: ack anyway and run from memory (the listeners tell the user the queue is unavailable)
        this.options.logger.warn(`slack request not written down, running it from memory: ${errorMessage(error)}`);
      }
    }
    if (eventId) this.remember(eventId);
    return { kind: 'taken', run: () => this.run(entry, durable) };
  }

  /** Looks for requests a dead process had taken, now and every few seconds, and runs them. */
  start(): void {
    this.options.inbox?.start((entries) => {
      this.options.logger.info(`re-running ${entries.length} Slack request(s) a stopped process had acknowledged`);
      for (const e of entries) this.run(e, true);
    });
  }

  /** Lets the running work finish; what still waits stays in the inbox for another process. */
  async stop(): Promise<void> {
    await this.queue.stop();
    await this.options.inbox?.close({ release: true });
  }

  private duplicate(eventId: string, retry: SlackRetry): Taken {
    this.options.logger.info('slack retry of a request already taken: acked, not run again', {
      eventId: eventId.slice(0, 40),
      retryNum: retry.retryNum,
    });
    return { kind: 'duplicate' };
  }

  private remember(eventId: string): void {
    this.recentEvents.add(eventId);
    const oldest = this.recentEvents.values().next().value;
    if (this.recentEvents.size > RECENT_EVENT_IDS && oldest !== undefined) this.recentEvents.delete(oldest);
  }

  private processEvent(event: Parameters<App['processEvent']>[0]): Promise<void> {
    if (!this.app) return Promise.reject(new Error('the Bolt app is not attached yet'));
    return this.app.processEvent(event);
  }

  private run(entry: InboxEntry, durable: boolean): void {
    this.queue
      .push(async () => {
        try {
          // the request's posts keep their identity when a next process re-runs it (a root is not posted twice)
          // and its request id (so the ids of the jobs it queues: queued once however often it runs)
          await withPostScope(
            `req-${entry.id}`,
            () =>
              this.processEvent({
                body: entry.body as never,
                ack: async () => undefined,
                ...(entry.retryNum !== undefined ? { retryNum: entry.retryNum } : {}),
                ...(entry.retryReason ? { retryReason: entry.retryReason } : {}),
              }),
            `r-${entry.id.replace(/-/g, '').slice(0, 12)}`,
          );
        } catch (error) {
          this.options.logger.warn(`slack request could not be handled: ${errorMessage(error, 200)}`);
        }
        if (durable) await this.options.inbox?.done(entry.id);
      })
      .catch(() => undefined); // queue stopped: the entry stays in the inbox for the next process
  }
}
