/**
 * The durable hand-off between Slack's ack and the work behind it. Every verified request is
 * written to Redis (one round trip, pipelined with the other requests of a burst) before its ack,
 * and removed once its work has run, so a process killed right after an ack leaves the request
 * behind instead of losing it. Each process keeps a short-lived "alive" key; a process finding
 * requests whose owner's key has expired (it died) claims them (one Lua script: one claimer) and
 * runs them again. The same write remembers Events API `event_id`s for an hour, so Slack's retries
 * of a request already taken (`X-Slack-Retry-Num`) are acked and dropped: no second job or thread.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedisConnection, type ConnectionLogger } from '../queue/redis-connection.js';
import { withQueueDeadline } from '../queue/queue-errors.js';
import { redisReady } from '../queue/redis-ready.js';

export interface InboxEntry {
  id: string;
  body: Record<string, unknown>;
  retryNum?: number;
  retryReason?: string;
  /** Epoch ms. */
  receivedAt: number;
}

export interface RequestInboxOptions {
  redisUrl: string;
  /** e.g. "bull:isvc-doctor-diagnosis" (next to the queue's keys). */
  keyPrefix: string;
  /** How long an owner stays alive without a heartbeat (default 5 s; heartbeats every third of it). */
  aliveTtlMs?: number;
  /** How often to look for a dead owner's requests (default 2 s). */
  sweepMs?: number;
  /** Requests older than this are dropped, not run again (default 15 min). */
  maxAgeMs?: number;
  /** Deadline of the write before the ack (default 1 s, a third of Slack's 3 s; past it the request is acked and run from memory). */
  opTimeoutMs?: number;
  logger?: ConnectionLogger;
}

const SEEN_TTL_SECONDS = 3600;

const RECORD = `
if #KEYS == 3 then
  if not redis.call('SET', KEYS[3], ARGV[1], 'NX', 'EX', ARGV[4]) then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1`;

const DONE = `
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return 1`;

const CLAIM = `
local owners = redis.call('HGETALL', KEYS[2])
local out = {}
local max = tonumber(ARGV[3]) * 2
for i = 1, #owners, 2 do
  local id, owner = owners[i], owners[i + 1]
  if owner ~= ARGV[2] and redis.call('EXISTS', ARGV[1] .. owner) == 0 then
    local body = redis.call('HGET', KEYS[1], id)
    if body then
      redis.call('HSET', KEYS[2], id, ARGV[2])
      table.insert(out, id)
      table.insert(out, body)
    else
      redis.call('HDEL', KEYS[2], id)
    end
    if #out >= max then break end
  end
end
return out`;

export class RequestInbox {
  readonly owner = randomUUID();
  private readonly redis: Redis;
  private readonly entriesKey: string;
  private readonly ownersKey: string;
  private readonly alivePrefix: string;
  private readonly aliveTtlMs: number;
  private readonly timeoutMs: number;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly options: RequestInboxOptions) {
    this.redis = createRedisConnection(options.redisUrl, 'producer', options.logger, { enableAutoPipelining: true });
    this.entriesKey = `${options.keyPrefix}:inbox`;
    this.ownersKey = `${options.keyPrefix}:inbox-owner`;
    this.alivePrefix = `${options.keyPrefix}:inbox-alive:`;
    this.aliveTtlMs = options.aliveTtlMs ?? 5000;
    this.timeoutMs = options.opTimeoutMs ?? 1000;
  }

  /**
   * Writes a request down; 'duplicate' when its event id was taken before (a Slack retry). Throws
   * QueueUnavailableError when Redis does not answer. A connection still being made (the first
   * requests after the process starts listening, a reconnect) is waited for within the same deadline:
   * without an offline queue the write would fail at once, and that request would run from memory only.
   */
  async record(entry: InboxEntry, eventId?: string): Promise<'new' | 'duplicate'> {
    const json = JSON.stringify(entry);
    const keys = eventId
      ? [this.entriesKey, this.ownersKey, `${this.options.keyPrefix}:seen:${eventId.slice(0, 100)}`]
      : [this.entriesKey, this.ownersKey];
    const added = await withQueueDeadline('record request', this.timeoutMs, async () => {
      await redisReady(this.redis, this.timeoutMs);
      return this.redis.eval(RECORD, keys.length, ...keys, entry.id, json, this.owner, SEEN_TTL_SECONDS);
    });
    return added === 1 ? 'new' : 'duplicate';
  }

  /** The request's work has run: forget it. */
  async done(id: string): Promise<void> {
    await withQueueDeadline('forget request', 5000, () =>
      this.redis.eval(DONE, 2, this.entriesKey, this.ownersKey, id),
    ).catch((e: unknown) => this.options.logger?.warn(`inbox: ${(e as Error).message}`));
  }

  /** Takes over up to `max` requests whose owner died. */
  async claimOrphans(max = 200): Promise<InboxEntry[]> {
    const raw = (await withQueueDeadline('claim requests', 5000, () =>
      this.redis.eval(CLAIM, 2, this.entriesKey, this.ownersKey, this.alivePrefix, this.owner, max),
    )) as string[];
    const out: InboxEntry[] = [];
    const maxAge = this.options.maxAgeMs ?? 15 * 60_000;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      try {
        const entry = JSON.parse(raw[i + 1]!) as InboxEntry;
        if (Date.now() - entry.receivedAt > maxAge) await this.done(raw[i]!);
        else out.push(entry);
      } catch {
        await this.done(raw[i]!);
      }
    }
    return out;
  }

  /** Heartbeats, and runs `onOrphans` with any dead owner's requests now and every sweep. */
  start(onOrphans: (entries: InboxEntry[]) => void): void {
    const beat = () =>
      this.redis.set(`${this.alivePrefix}${this.owner}`, '1', 'PX', this.aliveTtlMs).catch(() => undefined);
    const sweep = () =>
      this.claimOrphans()
        .then((entries) => entries.length > 0 && onOrphans(entries))
        .catch(() => undefined);
    void beat().then(sweep);
    this.timers.push(
      setInterval(beat, Math.max(50, Math.floor(this.aliveTtlMs / 3))),
      setInterval(sweep, this.options.sweepMs ?? 2000),
    );
    for (const t of this.timers) t.unref();
  }

  /** Stops the timers; `release` drops the alive key so another process takes over what is left at once. */
  async close(options: { release?: boolean } = {}): Promise<void> {
    for (const t of this.timers.splice(0)) clearInterval(t);
    if (options.release)
      await withQueueDeadline('release', 1000, () => this.redis.del(`${this.alivePrefix}${this.owner}`)).catch(
        () => undefined,
      );
    this.redis.disconnect();
  }
}
