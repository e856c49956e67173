/**
 * Cluster agents' heartbeats in Redis: one hash per cluster (`<prefix>:<queue>:agents`), a field per
 * agent process with when it last beat, its version, and when it stopped (a graceful stop says so at
 * once; a killed agent just goes quiet). The web process reads it to answer at once when a cluster
 * has no live agent, and for `/isvc clusters`.
 */
import type { Redis } from 'ioredis';

export interface AgentBeat {
  identity: string;
  /** Last heartbeat, ms since the epoch. */
  at: number;
  version: string;
  startedAt: number;
  /** Set by a graceful stop. */
  stoppedAt?: number;
}

export interface AgentHealth {
  /** An agent beat within staleAfterMs and has not stopped. */
  live: boolean;
  /** The newest heartbeat (null: no agent ever beat). */
  lastSeenAt: number | null;
  version: string | null;
  agents: number;
}

/** Entries silent for this long are dropped when read. */
const FORGET_AFTER_MS = 7 * 86_400_000;

export const agentsKey = (keyPrefix: string) => `${keyPrefix}:agents`;

export interface HeartbeatOptions {
  identity: string;
  version: string;
  intervalMs: number;
  now?: () => number;
  warn?(message: string): void;
}

export interface RunningHeartbeat {
  /** Resolves after the first beat is written. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

export function startHeartbeat(redis: Redis, keyPrefix: string, options: HeartbeatOptions): RunningHeartbeat {
  const now = options.now ?? Date.now;
  const key = agentsKey(keyPrefix);
  const startedAt = now();
  let lastWarn = 0;
  const write = async (extra: Partial<AgentBeat> = {}) => {
    const beat: AgentBeat = { identity: options.identity, at: now(), version: options.version, startedAt, ...extra };
    await redis.hset(key, options.identity, JSON.stringify(beat));
  };
  const beat = () =>
    write().catch((error: unknown) => {
      if (now() - lastWarn > 10_000) {
        lastWarn = now();
        options.warn?.(`heartbeat: ${String((error as Error).message ?? error)}`);
      }
    });
  const timer = setInterval(() => void beat(), options.intervalMs);
  timer.unref();
  // the first beat waits for the connection (a producer connection refuses commands until it is up)
  const first = async () => {
    for (let i = 0; i < 50; i += 1) {
      if (
        await write().then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 100));
    }
    await beat();
  };
  return {
    ready: first(),
    stop: async () => {
      clearInterval(timer);
      await write({ stoppedAt: now() }).catch(() => undefined);
    },
  };
}

export async function readAgentHealth(
  redis: Redis,
  keyPrefix: string,
  staleAfterMs: number,
  now = Date.now(),
): Promise<AgentHealth> {
  const key = agentsKey(keyPrefix);
  const raw = await redis.hgetall(key);
  const beats: AgentBeat[] = [];
  const forget: string[] = [];
  for (const [field, value] of Object.entries(raw)) {
    try {
      const b = JSON.parse(value) as AgentBeat;
      if (now - b.at > FORGET_AFTER_MS) forget.push(field);
      else beats.push(b);
    } catch {
      forget.push(field);
    }
  }
  if (forget.length > 0) await redis.hdel(key, ...forget).catch(() => undefined);
  const live = beats.filter((b) => b.stoppedAt === undefined && now - b.at <= staleAfterMs);
  const newest = [...beats].sort((a, b) => b.at - a.at)[0] ?? null;
  const shown = [...live].sort((a, b) => b.at - a.at)[0] ?? newest;
  return {
    live: live.length > 0,
    lastSeenAt: newest?.at ?? null,
    version: shown?.version ?? null,
    agents: live.length,
  };
}
