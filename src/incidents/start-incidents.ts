/**
 * Wires issue 5 into `serve`: the incident store and mutes (every role: `/isvc mute` needs them),
 * the incident worker (roles `all` and `worker`) and the Lease-elected watcher (roles `all` and
 * `watcher`). Nothing starts when no alerts channel is configured (alerts.channel / alerts.channels).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../core/logger.js';
import type { SlackPoster } from '../bot/slack-poster.js';
import type { AppConfig } from '../config.js';
import { namespaceAllowed } from '../config.js';
import type { TargetRef } from '../core/target-ref.js';
import type { Report } from '../findings/types.js';
import { startWatcherService, type RunningWatcher } from '../watcher/watcher-service.js';
import { IncidentQueue } from './incident-queue.js';
import { IncidentStore } from './incident-store.js';
import { createIncidentWorker } from './incident-worker.js';
import { MuteStore } from './mute-store.js';

export interface IncidentsOptions {
  config: Pick<AppConfig, 'alerts' | 'namespaces' | 'leaderElection' | 'queue' | 'redisUrl'>;
  runWorker: boolean;
  runWatcher: boolean;
  kubeConfig: KubeConfig;
  /** The diagnosis queue's producer connection (fails fast when Redis is down). */
  connection: Redis;
  /** BullMQ key prefix ("bull" unless isolated). */
  prefix: string;
  poster: SlackPoster;
  diagnose(target: TargetRef, signal?: AbortSignal): Promise<Report>;
  logger: Logger;
  /** Joins and recoveries within this long are posted together (default 1 s). */
  refreshDelayMs?: number;
  /** Lease holder identity (default: host name + random). */
  identity?: string;
}

export interface RunningIncidents {
  store: IncidentStore;
  mutes: MuteStore;
  queue: IncidentQueue;
  worker: Worker | null;
  watcher: RunningWatcher | null;
  close(): Promise<void>;
}

/** Where automatic posts for a namespace go; null: nowhere. */
export function alertsChannelFor(config: Pick<AppConfig, 'alerts'>, namespace: string): string | null {
  return config.alerts.channels[namespace] ?? config.alerts.channel;
}

export function alertsConfigured(config: Pick<AppConfig, 'alerts'>): boolean {
  return config.alerts.channel !== null || Object.keys(config.alerts.channels).length > 0;
}

/** The Lease's namespace: configured, else the pod's own, else the kubeconfig context's, else default. */
export function leaseNamespace(config: Pick<AppConfig, 'leaderElection'>, kubeConfig: KubeConfig, readPodNamespace: () => string | null): string {
  if (config.leaderElection.namespace) return config.leaderElection.namespace;
  const pod = readPodNamespace();
  if (pod) return pod;
  return kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace ?? 'default';
}

export function startIncidents(options: IncidentsOptions, readPodNamespace: () => string | null): RunningIncidents {
  const { config } = options;
  const keyPrefix = `${options.prefix}:${config.queue.name}:incidents`;
  const store = new IncidentStore(options.connection, keyPrefix);
  const mutes = new MuteStore(options.connection, keyPrefix);
  const queue = new IncidentQueue({ connection: options.connection, name: `${config.queue.name}-incidents`, prefix: options.prefix, refreshDelayMs: options.refreshDelayMs ?? 1000, backoffMs: config.queue.backoffMs });
  const enabled = alertsConfigured(config);
  const channelFor = (ns: string) => alertsChannelFor(config, ns);
  const worker = enabled && options.runWorker
    ? createIncidentWorker(
        { redisUrl: config.redisUrl, name: `${config.queue.name}-incidents`, prefix: options.prefix, concurrency: config.queue.concurrency, warn: options.logger.warn },
        { diagnose: options.diagnose, poster: options.poster, store, mutes, queue, channelFor, groupWindowMs: config.alerts.groupWindowMs },
      )
    : null;
  const watcher = enabled && options.runWatcher
    ? startWatcherService({
        kubeConfig: options.kubeConfig,
        namespaces: config.namespaces,
        store,
        jobs: queue,
        unreadyAfterMs: config.alerts.unreadyAfterMs,
        watched: (ns) => namespaceAllowed(config, ns) && channelFor(ns) !== null,
        lease: {
          namespace: leaseNamespace(config, options.kubeConfig, readPodNamespace),
          name: config.leaderElection.leaseName,
          durationMs: config.leaderElection.leaseDurationMs,
          ...(options.identity ? { identity: options.identity } : {}),
        },
        logger: options.logger,
      })
    : null;
  if (!enabled && options.runWatcher) options.logger.info('watcher: no alerts channel configured (alerts.channel), automatic incidents are off');
  return {
    store,
    mutes,
    queue,
    worker,
    watcher,
    close: async () => {
      await watcher?.close().catch(() => undefined);
      await worker?.close().catch(() => undefined);
      await queue.close();
    },
  };
}
