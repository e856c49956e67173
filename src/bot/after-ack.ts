/**
 * Work a listener does after its ack, run a few at a time and only after the ack has been written.
 * While a burst of commands is still arriving the work waits (up to `maxDelayMs`), so the acks get
 * the CPU first (Slack's 3 s are about the ack) and the Redis / Slack work behind them is paced.
 */
export type AfterAck = (work: () => Promise<void>) => void;

export interface AfterAckOptions {
  concurrency?: number;
  /** Start work once no new work arrived for this long… */
  quietMs?: number;
  /** …or once the oldest work has waited this long. */
  maxDelayMs?: number;
  onError?(error: unknown): void;
}

export function createAfterAck(options: AfterAckOptions = {}): AfterAck {
  const { concurrency = 8, quietMs = 5, maxDelayMs = 100 } = options;
  const pending: Array<{ work: () => Promise<void>; at: number }> = [];
  let running = 0;
  let lastPush = 0;
  let timer: NodeJS.Timeout | null = null;
  const next = () => {
    while (running < concurrency && pending.length > 0) {
      const { work } = pending.shift()!;
      running += 1;
      void work()
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          running -= 1;
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
  return (work) => {
    lastPush = performance.now();
    pending.push({ work, at: lastPush });
    timer ??= setTimeout(wake, quietMs);
  };
}
