/**
 * A poster that posts each message of a job once, across runs of the job: inside a post scope
 * (core/post-scope.ts, opened by the job processor), the nth post to a thread is recorded in Redis
 * with the ts Slack gave it; a run of the same job after its process died (SIGKILL mid-answer) finds
 * the record and returns that ts instead of posting again. Outside a scope it posts as usual.
 */
import type { Redis } from 'ioredis';
import { currentPostScope } from '../core/post-scope.js';
import type { SlackPoster } from './slack-poster.js';

const KEEP_SECONDS = 24 * 3600;

export function oncePoster(poster: SlackPoster, redis: Redis, keyPrefix: string): SlackPoster {
  return {
    ...poster,
    async post(channel, message, threadTs) {
      const scope = currentPostScope();
      if (!scope) return poster.post(channel, message, threadTs);
      const thread = `${channel}/${threadTs ?? ''}`;
      const key = `${keyPrefix}:posted:${scope.id}:${thread}:${scope.next(thread)}`;
      const earlier = await redis.get(key).catch(() => null);
      if (earlier) return earlier;
      const ts = await poster.post(channel, message, threadTs);
      await redis.set(key, ts, 'EX', KEEP_SECONDS).catch(() => undefined);
      return ts;
    },
  };
}
