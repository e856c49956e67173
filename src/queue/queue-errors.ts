/** Errors of the queue layer, each with a stable code. */
import { CodedError } from '../core/coded-error.js';
import { errorMessage } from '../core/error-message.js';

/** Redis could not be reached (or did not answer in time): the user is told to try again. */
export class QueueUnavailableError extends CodedError<'QUEUE_UNAVAILABLE'> {
  constructor(message: string) {
    super('QUEUE_UNAVAILABLE', message);
  }
}

/** Runs a Redis operation with a deadline; any failure becomes a QueueUnavailableError. */
export async function withQueueDeadline<T>(what: string, ms: number, op: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      op(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new QueueUnavailableError(`${what}: Redis did not answer within ${ms} ms`)),
          ms,
        );
      }),
    ]);
  } catch (error) {
    if (error instanceof QueueUnavailableError) throw error;
    throw new QueueUnavailableError(`${what}: ${errorMessage(error)}`);
  } finally {
    clearTimeout(timer);
  }
}
