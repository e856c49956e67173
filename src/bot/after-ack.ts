/**
 * Work a listener does after its ack, run a few at a time and only after the ack has been written.
 * A burst of commands is then acked first (Slack's 3 s are about the ack) and the Redis / Slack work
 * behind it is paced instead of competing with the acks still to send.
 */
export type AfterAck = (work: () => Promise<void>) => void;

export function createAfterAck(concurrency = 8, onError?: (error: unknown) => void): AfterAck {
  const pending: Array<() => Promise<void>> = [];
  let running = 0;
  const next = () => {
    while (running < concurrency && pending.length > 0) {
      const work = pending.shift()!;
      running += 1;
      void work()
        .catch((error: unknown) => onError?.(error))
        .finally(() => {
          running -= 1;
          setImmediate(next);
        });
    }
  };
  return (work) => {
    pending.push(work);
    setImmediate(next);
  };
}
