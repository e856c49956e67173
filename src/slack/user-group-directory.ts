/**
 * Members of Slack user groups (`usergroups.users.list`, scope usergroups:read), cached for a
 * minute. A group that cannot be read (no such group, a missing scope, Slack down) is left out of
 * the answer and not cached: the approval check fails closed on it and says so, and the next click
 * asks Slack again.
 */
import { WebAPIPlatformError, type WebClient } from '@slack/web-api';
import { errorMessage } from '../core/error-message.js';

export function createUserGroupDirectory(
  client: Pick<WebClient, 'usergroups'>,
  options: { ttlMs?: number; warn?(m: string): void } = {},
): { members(groupIds: string[]): Promise<ReadonlyMap<string, readonly string[]>> } {
  const ttl = options.ttlMs ?? 60_000;
  const cache = new Map<string, { users: string[]; at: number }>();
  const one = async (id: string): Promise<string[] | null> => {
    const hit = cache.get(id);
    if (hit && Date.now() - hit.at < ttl) return hit.users;
    try {
      const res = await client.usergroups.users.list({ usergroup: id });
      const users = (res.users ?? []) as string[];
      cache.set(id, { users, at: Date.now() });
      return users;
    } catch (error) {
      options.warn?.(
        `usergroups.users.list ${id}: ${error instanceof WebAPIPlatformError ? error.data.error : errorMessage(error)}`,
      );
      return null;
    }
  };
  return {
    async members(groupIds) {
      const entries = await Promise.all(groupIds.map(async (id) => [id, await one(id)] as const));
      return new Map(entries.filter((e): e is readonly [string, string[]] => e[1] !== null));
    },
  };
}
