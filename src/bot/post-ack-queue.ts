/**
 * Work done after Slack's ack, run a few at a time and only after the acks of a burst are out: while
 * requests are still arriving the work waits (up to `maxDelayMs`), so the acks get the CPU first
 * (Slack's 3 s are about the ack) and the Redis / Slack work behind them is paced. A request on its
 * own (nothing waiting or running, none in the `isolatedMs` before it) is no burst: its work starts at
 * once. The queue is bounded (`maxPending`): a caller checks `full` before acking, so a burst cannot
 * pile up memory.
 */
export interface PostAckQueueOptions {
  concurrency?: number;
  /** Start work once no new work arrived for this long… */
  quietMs?: number;
  /** …or once the oldest work has waited this long. */
  maxDelayMs?: number;
  /** Work pushed this long after the previous push, with nothing waiting or running, starts at once. */
  isolatedMs?: number;
  /** At most this many waiting (not yet running) pieces of work. */
  maxPending?: number;
  onError?(error: unknown): void;
}

export interface PostAckQueue {
  /** Queues work; resolves when it has run (its errors go to onError). Rejects when the queue is full or stopped. */
  push(work: () => Promise<unknown>): Promise<void>;
  readonly full: boolean;
  readonly pending: number;
  readonly running: number;
  /** Starts no more work; resolves once the running work is done. Waiting work is dropped (its owner re-drives it). */
  stop(): Promise<void>;
}

export class PostAckQueueFull extends Error {
  constructor() {
    super('post-ack queue full');
  }
}

export function createPostAckQueue(options: PostAckQueueOptions = {}): PostAckQueue {
  const { concurrency = 8, quietMs = 5, maxDelayMs = 100, isolatedMs = 20, maxPending = 5000 } = options;
  type Item = { work: () => Promise<unknown>; at: number; done: () => void };
  const pending: Item[] = [];
  let running = 0;
  let lastPush = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const drained: Array<() => void> = [];
  const next = () => {
    while (!stopped && running < concurrency && pending.length > 0) {
      const item = pending.shift();
      if (!item) break;
      running += 1;
      void Promise.resolve()
        .then(item.work)
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          running -= 1;
          item.done();
          if (running === 0) for (const d of drained.splice(0)) d();
          setImmediate(next);
        });
    }
  };
  const wake = () => {
    timer = null;
    const now = performance.now();
    const oldest = pending[0]?.at ?? now;
    if (now - lastPush < quietMs && now - oldest < maxDelayMs) timer = setTimeout(wake, quietMs);
    else next();
  };
  return {
    push(work) {
      if (stopped || pending.length >= maxPending) return Promise.reject(new PostAckQueueFull());
      const now = performance.now();
      const isolated = pending.length === 0 && running === 0 && timer === null && now - lastPush >= isolatedMs;
      lastPush = now;
      return new Promise<void>((resolve) => {
        pending.push({ work, at: now, done: resolve });
        if (isolated) next();
        else timer ??= setTimeout(wake, quietMs);
      });
    },
    get full() {
      return stopped || pending.length >= maxPending;
    },
    get pending() {
      return pending.length;
    },
    get running() {
      return running;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const item of pending.splice(0)) item.done();
      return running === 0 ? Promise.resolve() : new Promise<void>((r) => drained.push(r));
    },
  };
}
