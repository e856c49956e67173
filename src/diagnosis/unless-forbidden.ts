/**
 * A read a check can do without: its answer, or `fallback` when the bot's RBAC denies it (the runner
 * reports missing grants on their own; the check goes on with what it may read). Any other error
 * (unreachable, a timeout) propagates.
 */
import { ForbiddenError } from '../kube/errors.js';

export async function unlessForbidden<T>(read: Promise<T>, fallback: T): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ForbiddenError) return fallback;
    throw error;
  }
}
