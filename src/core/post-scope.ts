/**
 * The job a post is made for, carried through async calls (AsyncLocalStorage) from the job's
 * processor to the Slack poster without threading it through every event: inside a scope, the nth
 * post to a thread has a stable identity (job id, channel, thread, n), so a job run again after its
 * process died does not post what the first run already posted.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface PostScope {
  id: string;
  /** For a Slack request: its request id, the same when another process runs it again (so are the ids of the jobs it queues). */
  requestId?: string;
  /** The index of the next post to `thread` in this scope: 0, 1, 2… */
  next(thread: string): number;
}

const scopes = new AsyncLocalStorage<PostScope>();

export function withPostScope<T>(id: string, fn: () => T, requestId?: string): T {
  const counters = new Map<string, number>();
  return scopes.run(
    {
      id,
      ...(requestId ? { requestId } : {}),
      next: (thread) => {
        const n = counters.get(thread) ?? 0;
        counters.set(thread, n + 1);
        return n;
      },
    },
    fn,
  );
}

export function currentPostScope(): PostScope | undefined {
  return scopes.getStore();
}
