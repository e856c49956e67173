/**
 * Mutes in Redis (`/isvc mute NAME [DURATION]`): a key per InferenceService that expires with the
 * mute (no duration: until `/isvc unmute`). Muted services get no automatic incident posts.
 */
import type { Redis } from 'ioredis';

export interface Mute {
  by: string;
  /** ms since the epoch; null: until unmuted. */
  until: number | null;
}

export class MuteStore {
  constructor(
    private readonly redis: Redis,
    /** The incident store's prefix. */
    private readonly prefix: string,
  ) {}

  private key(isvcKey: string): string {
    return `${this.prefix}:mute:${isvcKey}`;
  }

  async mute(isvcKey: string, by: string, durationMs: number | null, now = Date.now()): Promise<Mute> {
    const mute: Mute = { by, until: durationMs === null ? null : now + durationMs };
    if (durationMs === null) await this.redis.set(this.key(isvcKey), JSON.stringify(mute));
    else await this.redis.set(this.key(isvcKey), JSON.stringify(mute), 'PX', durationMs);
    return mute;
  }

  /** true when there was a mute to remove. */
  async unmute(isvcKey: string): Promise<boolean> {
    return (await this.redis.del(this.key(isvcKey))) > 0;
  }

  async get(isvcKey: string): Promise<Mute | null> {
    const raw = await this.redis.get(this.key(isvcKey));
    return raw ? (JSON.parse(raw) as Mute) : null;
  }

  async isMuted(isvcKey: string): Promise<boolean> {
    return (await this.redis.exists(this.key(isvcKey))) === 1;
  }
}
