/**
 * A BullMQ Queue on a shared producer connection that is set up again when its setup failed.
 *
 * BullMQ sets a Queue up once: it waits for the connection, then asks Redis for its version (INFO).
 * On a producer connection (no offline queue, one retry per request, so that a Slack handler can say
 * "queue unavailable" at once) Redis going away while that INFO is in flight rejects the setup, and
 * BullMQ keeps the rejected setup: every later call on that Queue fails with the old error although
 * the connection is back and answers. Here the failed Queue is replaced by a new one on the same
 * connection, whose setup waits for the connection to be ready again.
 */
import type { Queue } from 'bullmq';
import { errorMessage } from '../core/error-message.js';
import type { ConnectionLogger } from './redis-connection.js';

/** A pause between set-ups, so that a Redis that keeps refusing is not asked in a tight loop. */
const RETRY_SETUP_MS = 200;

export class RecoveringQueue<T> {
  private queue: Queue<T>;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly build: () => Queue<T>,
    private readonly what: string,
    private readonly logger?: ConnectionLogger,
  ) {
    this.queue = this.setUp();
  }

  /** The Queue to use now (a new one after a failed setup). */
  get current(): Queue<T> {
    return this.queue;
  }

  private setUp(): Queue<T> {
    const queue = this.build();
    queue.waitUntilReady().catch((error: unknown) => {
      if (this.closed || queue !== this.queue) return;
      this.logger?.warn(`${this.what}: its setup on Redis failed (${errorMessage(error, 200)}); setting it up again`);
      this.retryTimer = setTimeout(() => {
        if (this.closed) return;
        this.queue = this.setUp();
        // a Queue on a shared connection leaves the connection open when it closes
        queue.close().catch(() => undefined);
      }, RETRY_SETUP_MS);
      this.retryTimer.unref();
    });
    return queue;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.queue.close();
  }
}
