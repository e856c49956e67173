/** Errors of the queue layer, each with a stable code. */

/** Redis could not be reached (or did not answer in time): the user is told to try again. */
export class QueueUnavailableError extends Error {
  readonly code = 'QUEUE_UNAVAILABLE';
  constructor(message: string) {
    super(message);
    this.name = 'QueueUnavailableError';
  }
}

/** Runs a Redis operation with a deadline; any failure becomes a QueueUnavailableError. */
export async function withQueueDeadline<T>(what: string, ms: number, op: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      op(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new QueueUnavailableError(`${what}: Redis did not answer within ${ms} ms`)), ms);
      }),
    ]);
  } catch (error) {
    if (error instanceof QueueUnavailableError) throw error;
    throw new QueueUnavailableError(`${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}
