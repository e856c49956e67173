/**
 * The Slack threads that wait on a running diagnosis job, in Redis next to the job. The job's own
 * data holds the first requester; requesters who join later are appended here. When the worker has
 * the report it closes the list (one Lua script: no join can slip in between) and frees the
 * InferenceService's deduplication key, so a later request starts a fresh diagnosis.
 */
import type { Redis } from 'ioredis';
import { subscriberSchema, type Subscriber } from './job-data.js';

const TTL_SECONDS = 24 * 3600;

const JOIN = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`;

const CLOSE = `
redis.call('SET', KEYS[2], '1', 'EX', ARGV[2])
if redis.call('GET', KEYS[3]) == ARGV[1] then redis.call('DEL', KEYS[3]) end
return redis.call('LRANGE', KEYS[1], 0, -1)`;

export class SubscriberStore {
  /** @param keyPrefix e.g. "bull:isvc-doctor-diagnosis" (the queue's own key prefix) */
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  private listKey(jobId: string) {
    return `${this.keyPrefix}:subs:${jobId}`;
  }
  private closedKey(jobId: string) {
    return `${this.keyPrefix}:subs-closed:${jobId}`;
  }
  private dedupKey(dedupId: string) {
    return `${this.keyPrefix}:de:${dedupId}`;
  }

  /** Adds a thread to a running job; false when the job has already taken its list (start a new one). */
  async join(jobId: string, subscriber: Subscriber): Promise<boolean> {
    const joined = await this.redis.eval(
      JOIN,
      2,
      this.listKey(jobId),
      this.closedKey(jobId),
      JSON.stringify(subscriber),
      TTL_SECONDS,
    );
    return joined === 1;
  }

  /** The threads that joined so far (not the first requester's, which is in the job data). */
  async list(jobId: string): Promise<Subscriber[]> {
    return parse(await this.redis.lrange(this.listKey(jobId), 0, -1));
  }

  /** Closes the list for good and frees the dedup key if it still points at this job; returns who joined. */
  async close(jobId: string, dedupId: string): Promise<Subscriber[]> {
    const raw = (await this.redis.eval(
      CLOSE,
      3,
      this.listKey(jobId),
      this.closedKey(jobId),
      this.dedupKey(dedupId),
      jobId,
      TTL_SECONDS,
    )) as string[];
    return parse(raw);
  }

  /** Drops the job's keys once its answers are posted. */
  async forget(jobId: string): Promise<void> {
    await this.redis.del(this.listKey(jobId));
  }
}

function parse(raw: string[]): Subscriber[] {
  const out: Subscriber[] = [];
  for (const item of raw) {
    try {
      const parsed = subscriberSchema.safeParse(JSON.parse(item));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // an unreadable entry is skipped, not fatal
    }
  }
  return out;
}
