/**
 * How a listener runs its work after its ack: `afterAck(work)` resolves when the work has run.
 * Either front door (slack-receiver.ts, socket-mode-receiver.ts) already runs each request's
 * handling after its ack on a paced queue (acked-requests.ts), so the work runs at once.
 */
export type AfterAck = (work: () => Promise<void>) => Promise<void>;

/** At once (the caller already runs after the ack, paced). */
export function runAfterAck(onError: (error: unknown) => void): AfterAck {
  return (work) => work().catch(onError);
}
