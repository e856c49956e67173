/**
 * Which cluster a command or a click goes to, in the multi-cluster web process: `--cluster NAME`,
 * else the cluster whose `channels` list the channel, else `defaultCluster`. Each cluster has its
 * own queues and stores in Redis (a hash-tagged prefix, src/queue/queue-prefix.ts) and its own
 * agents' heartbeats; the web process only adds jobs and reads stores, it never talks to a cluster.
 */
import { clusterForChannel, type AppConfig } from '../config.js';
import type { MuteStore } from '../incidents/mute-store.js';
import type { ClusterJobQueue } from '../queue/cluster-job-queue.js';
import type { RequestDeps } from '../queue/request-diagnosis.js';
import { readAgentHealth, type AgentHealth } from './agent-heartbeat.js';

/** What a command for one cluster uses: that cluster's queue, its messages' notifier (naming the cluster) and its mutes. */
export interface ClusterCommandDeps {
  diagnoses: RequestDeps;
  queue: ClusterJobQueue;
  mutes?: MuteStore;
}

export interface ClusterListing {
  name: string;
  channels: string[];
  alertsChannel: string | null;
  isDefault: boolean;
  health: AgentHealth;
}

export interface ClusterRoutes {
  names: readonly string[];
  /** The cluster a channel's commands go to without --cluster (null: none, ask). */
  defaultFor(channel: string): string | null;
  deps(name: string): ClusterCommandDeps;
  health(name: string): Promise<AgentHealth>;
  list(): Promise<ClusterListing[]>;
}

export interface ClusterPart extends ClusterCommandDeps {
  /** The cluster's Redis key prefix (`<bullmq prefix>:<queue name>`), where its stores and heartbeats are. */
  keyPrefix: string;
}

export function clusterRoutes(
  config: Pick<AppConfig, 'clusters' | 'defaultCluster' | 'agents'>,
  parts: ReadonlyMap<string, ClusterPart>,
  now: () => number = Date.now,
): ClusterRoutes {
  const names = Object.keys(config.clusters ?? {});
  const part = (name: string) => {
    const p = parts.get(name);
    if (!p) throw new Error(`no such cluster: ${name}`);
    return p;
  };
  const health = (name: string) =>
    readAgentHealth(part(name).queue.connection, part(name).keyPrefix, config.agents.staleAfterMs, now());
  return {
    names,
    defaultFor: (channel) => clusterForChannel(config, channel),
    deps: (name) => {
      const { diagnoses, queue, mutes } = part(name);
      return { diagnoses, queue, ...(mutes ? { mutes } : {}) };
    },
    health,
    list: () =>
      Promise.all(
        names.map(async (name) => ({
          name,
          channels: config.clusters![name]!.channels,
          alertsChannel: config.clusters![name]!.alertsChannel,
          isDefault: config.defaultCluster === name,
          health: await health(name),
        })),
      ),
  };
}
