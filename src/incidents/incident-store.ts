/**
 * Incident state in Redis, so that a restart or a leader takeover neither reposts an open incident
 * nor forgets to close it. Keys under one prefix:
 *   unready            hash  ns/name → first time seen unready (ms), written by the watcher
 *   member             hash  ns/name → id of the open incident it belongs to
 *   incident:<id>      JSON  the incident
 *   incident:<id>:m    hash  ns/name → JSON member
 *   group:<ch>:<code>  id of the incident still accepting members for that channel and root cause (TTL: the window)
 *   lock:<name>        short locks around "read, decide, post"
 * The two races that matter are closed by Lua scripts: a worker claims a member only while the
 * service is still marked unready, and the watcher clears that mark and learns the claim in one step.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CodedError } from '../core/coded-error.js';
import type { Incident, Member } from './incident-model.js';

/** HSET member[key] = id only while the service is marked unready and is in no other incident. */
const CLAIM = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local current = redis.call('HGET', KEYS[2], ARGV[1])
if current and current ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/** The service is Ready (or gone): drop its unready mark, and say which incident it is in, if any. */
const MARK_READY = `
redis.call('HDEL', KEYS[1], ARGV[1])
return redis.call('HGET', KEYS[2], ARGV[1])`;

const RELEASE_MEMBER = `if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0`;
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const DEL_IF = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export class LockTimeoutError extends CodedError<'INCIDENT_LOCK_TIMEOUT'> {
  constructor(name: string) {
    super('INCIDENT_LOCK_TIMEOUT', `could not take the incident lock ${name}`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class IncidentStore {
  constructor(
    readonly redis: Redis,
    /** e.g. "bull:isvc-doctor-diagnosis:incidents" */
    readonly prefix: string,
  ) {}

  private k(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }

  // --- written by the watcher (the leader) ---

  /** Marks a service unready (keeping an earlier mark); returns since when it has been. */
  async markUnready(key: string, now: number): Promise<number> {
    await this.redis.hsetnx(this.k('unready'), key, String(now));
    return Number((await this.redis.hget(this.k('unready'), key)) ?? now);
  }

  /** Clears the unready mark; returns the id of the incident the service is in, if any. */
  async markReady(key: string): Promise<string | null> {
    return (await this.redis.eval(MARK_READY, 2, this.k('unready'), this.k('member'), key)) as string | null;
  }

  async unreadyAll(): Promise<Map<string, number>> {
    const raw = await this.redis.hgetall(this.k('unready'));
    return new Map(Object.entries(raw).map(([k, v]) => [k, Number(v)]));
  }

  async isUnready(key: string): Promise<boolean> {
    return (await this.redis.hexists(this.k('unready'), key)) === 1;
  }

  /** ns/name → incident id, for every service in an open incident. */
  async membersAll(): Promise<Map<string, string>> {
    return new Map(Object.entries(await this.redis.hgetall(this.k('member'))));
  }

  // --- written by the incident jobs (workers) ---

  async memberOf(key: string): Promise<string | null> {
    return this.redis.hget(this.k('member'), key);
  }

  async claimMember(key: string, incidentId: string): Promise<boolean> {
    return (await this.redis.eval(CLAIM, 2, this.k('unready'), this.k('member'), key, incidentId)) === 1;
  }

  async releaseMember(key: string, incidentId: string): Promise<void> {
    await this.redis.eval(RELEASE_MEMBER, 1, this.k('member'), key, incidentId);
  }

  async getIncident(id: string): Promise<Incident | null> {
    const raw = await this.redis.get(this.k('incident', id));
    return raw ? (JSON.parse(raw) as Incident) : null;
  }

  async putIncident(incident: Incident): Promise<void> {
    // Resolved incidents are kept a week for reference, open ones for as long as they stay open.
    const multi = this.redis.multi().set(this.k('incident', incident.id), JSON.stringify(incident));
    if (incident.status === 'resolved')
      multi
        .expire(this.k('incident', incident.id), 7 * 86_400)
        .expire(this.k('incident', incident.id, 'm'), 7 * 86_400);
    await multi.exec();
  }

  async putMembers(incidentId: string, members: Member[]): Promise<void> {
    if (members.length === 0) return;
    await this.redis.hset(
      this.k('incident', incidentId, 'm'),
      Object.fromEntries(members.map((m) => [m.key, JSON.stringify(m)])),
    );
  }

  async getMember(incidentId: string, key: string): Promise<Member | null> {
    const raw = await this.redis.hget(this.k('incident', incidentId, 'm'), key);
    return raw ? (JSON.parse(raw) as Member) : null;
  }

  /** Members in the order they joined. */
  async members(incidentId: string): Promise<Member[]> {
    const raw = await this.redis.hgetall(this.k('incident', incidentId, 'm'));
    return Object.values(raw)
      .map((v) => JSON.parse(v) as Member)
      .sort((a, b) => a.joinedAt - b.joinedAt || a.key.localeCompare(b.key));
  }

  async groupOf(channel: string, rootCause: string): Promise<string | null> {
    return this.redis.get(this.k('group', channel, rootCause));
  }

  async setGroup(channel: string, rootCause: string, incidentId: string, windowMs: number): Promise<void> {
    await this.redis.set(this.k('group', channel, rootCause), incidentId, 'PX', Math.max(1, windowMs));
  }

  async clearGroup(channel: string, rootCause: string, incidentId: string): Promise<void> {
    await this.redis.eval(DEL_IF, 1, this.k('group', channel, rootCause), incidentId);
  }

  /** Runs `fn` holding a short Redis lock (expires by itself should this process die). */
  async withLock<T>(name: string, fn: () => Promise<T>, options: { ttlMs?: number; waitMs?: number } = {}): Promise<T> {
    const key = this.k('lock', name);
    const token = randomUUID();
    const deadline = Date.now() + (options.waitMs ?? 60_000);
    let pause = 5;
    while ((await this.redis.set(key, token, 'PX', options.ttlMs ?? 30_000, 'NX')) !== 'OK') {
      if (Date.now() > deadline) throw new LockTimeoutError(name);
      await sleep(pause);
      pause = Math.min(50, pause * 2);
    }
    try {
      return await fn();
    } finally {
      await this.redis.eval(UNLOCK, 1, key, token).catch(() => undefined);
    }
  }
}
