/**
 * How a listener runs its work after its ack: `afterAck(work)` resolves when the work has run.
 * In HTTP mode the front door (slack-receiver.ts) already runs each request's handling on its
 * post-ack queue, so the work runs at once; in Socket Mode it goes through a paced queue of its own.
 */
import { createPostAckQueue, type PostAckQueueOptions } from './post-ack-queue.js';

export type AfterAck = (work: () => Promise<void>) => Promise<void>;

export type AfterAckOptions = Omit<PostAckQueueOptions, 'maxPending'>;

/** Paced: a few at a time, after the burst of acks. */
export function createAfterAck(options: AfterAckOptions = {}): AfterAck {
  const queue = createPostAckQueue({ ...options, maxPending: Number.MAX_SAFE_INTEGER });
  return (work) => queue.push(work);
}

/** At once (the caller already runs after the ack, paced). */
export function runAfterAck(onError: (error: unknown) => void): AfterAck {
  return (work) => work().catch(onError);
}
