/**
 * A poster that posts each message of a job once, across runs of the job: inside a post scope
 * (core/post-scope.ts, opened by the job processor and by a Slack request's run), the nth post to a
 * thread has a record in Redis, written before the post and after it:
 * - before: "pending", with the key the post carries in its message metadata and when it started;
 * - after: the ts Slack gave it.
 * A run of the same scope after its process died (SIGKILL anywhere) finds the record: a ts is
 * returned as it is; a pending post may have landed (Slack accepted it, the process died before
 * hearing back), so the poster looks it up by its key (web-api-poster's bounded look-up) and
 * adopts it, or posts it with the same key when it is not there.
 * Ephemeral answers (only the asker sees them: ISVC_NOT_FOUND, refusals) are recorded the same way,
 * keyed by the scope and the nth answer to that user in that thread: "pending" before, "sent" after.
 * A run again finds "sent" and sends nothing. Slack keeps no ephemeral message to look up, so a
 * "pending" one (the process died during the one Slack call) is sent again: in that window a
 * duplicate answer beats a lost one. Outside a scope it posts and answers as usual.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { currentPostScope } from '../core/post-scope.js';
import type { SlackPoster } from './slack-poster.js';

const KEEP_SECONDS = 24 * 3600;
const PENDING = 'pending:';
const SENT = 'sent';

/** A record written before the post: its metadata key and when it started (epoch ms). */
function pendingOf(record: string): { key: string; since: number } | null {
  if (!record.startsWith(PENDING)) return null;
  const [key = '', since = ''] = record.slice(PENDING.length).split('@');
  return key && /^\d+$/.test(since) ? { key, since: Number(since) } : null;
}

export function oncePoster(poster: SlackPoster, redis: Redis, keyPrefix: string): SlackPoster {
  return {
    ...poster,
    async post(channel, message, threadTs, options) {
      const scope = currentPostScope();
      if (!scope) return poster.post(channel, message, threadTs, options);
      const thread = `${channel}/${threadTs ?? ''}`;
      const record = `${keyPrefix}:posted:${scope.id}:${thread}:${scope.next(thread)}`;
      const earlier = await redis.get(record).catch(() => null);
      const pending = earlier ? pendingOf(earlier) : null;
      if (earlier && !pending) return earlier;
      const key = pending?.key ?? randomUUID();
      if (!pending)
        await redis.set(record, `${PENDING}${key}@${Date.now()}`, 'EX', KEEP_SECONDS).catch(() => undefined);
      const ts = await poster.post(channel, message, threadTs, {
        ...options,
        key,
        ...(pending ? { maybePostedSince: pending.since } : {}),
      });
      await redis.set(record, ts, 'EX', KEEP_SECONDS).catch(() => undefined);
      return ts;
    },
    async ephemeral(channel, user, message, threadTs) {
      const scope = currentPostScope();
      if (!scope) return poster.ephemeral(channel, user, message, threadTs);
      const answer = `ephemeral:${channel}/${user}/${threadTs ?? ''}`;
      const record = `${keyPrefix}:answered:${scope.id}:${answer}:${scope.next(answer)}`;
      const earlier = await redis.get(record).catch(() => null);
      if (earlier === SENT) return;
      if (!earlier) await redis.set(record, `${PENDING}${Date.now()}`, 'EX', KEEP_SECONDS).catch(() => undefined);
      await poster.ephemeral(channel, user, message, threadTs);
      await redis.set(record, SENT, 'EX', KEEP_SECONDS).catch(() => undefined);
    },
  };
}
