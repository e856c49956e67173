/**
 * Automatic incidents in `serve`: the incident store and mutes (every role: `/isvc mute` needs
 * them), the incident worker (roles that run workers) and the Lease-elected watcher (roles that
 * watch). Nothing starts when no alerts channel is configured (alerts.channel / alerts.channels).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { alertsChannelFor, alertsConfigured, namespaceAllowed, type AppConfig } from '../config.js';
import type { Logger } from '../core/logger.js';
import type { Notify } from '../core/notify.js';
import type { IncidentEvent } from '../incidents/incident-events.js';
import { IncidentQueue } from '../incidents/incident-queue.js';
import { IncidentStore } from '../incidents/incident-store.js';
import { createIncidentWorker } from '../incidents/incident-worker.js';
import { MuteStore } from '../incidents/mute-store.js';
import type { IncidentJobDeps } from '../incidents/process-incident-job.js';
import { offerRemediations } from '../remediation/offer-remediations.js';
import { INCIDENT_REQUESTER } from '../remediation/proposal.js';
import type { RemediationDeps } from '../remediation/remediation-deps.js';
import { startWatcherService, type RunningWatcher } from '../watcher/watcher-service.js';
import type { Diagnoser } from './diagnoser.js';

export interface IncidentsWiring {
  config: Pick<AppConfig, 'alerts' | 'namespaces' | 'leaderElection' | 'queue' | 'redisUrl' | 'podNamespace'>;
  runWorker: boolean;
  runWatcher: boolean;
  /** null: a process without cluster credentials (it never runs the watcher). */
  kubeConfig: KubeConfig | null;
  /** The cluster job queue's producer connection (fails fast when Redis is down). */
  connection: Redis;
  /** BullMQ key prefix ("bull" unless isolated). */
  prefix: string;
  /** The incident messages' notifier (required where the worker runs). */
  notify?: Notify<IncidentEvent>;
  diagnose: Diagnoser;
  logger: Logger;
  /** Joins and recoveries within this long are posted together (default 1 s). */
  refreshDelayMs?: number;
  /** Lease holder identity (default: host name + random). */
  identity?: string;
  /** Offers a diagnosis' fixes in an incident's thread (absent: remediations are off). */
  offerFixes?: IncidentJobDeps['offerFixes'];
}

export interface RunningIncidents {
  store: IncidentStore;
  mutes: MuteStore;
  queue: IncidentQueue;
  worker: Worker | null;
  watcher: RunningWatcher | null;
  close(): Promise<void>;
}

/** An incident thread gets the fixes its diagnosis offers, as a `/isvc diagnose` thread does (no one asked: the bot offers them). */
export function incidentFixes(remediation: RemediationDeps): NonNullable<IncidentJobDeps['offerFixes']> {
  return (report, thread) =>
    offerRemediations(remediation, report, [
      { channel: thread.channel, threadTs: thread.rootTs, user: INCIDENT_REQUESTER },
    ]);
}

/** The Lease's namespace: configured, else the pod's own, else the kubeconfig context's, else default. */
export function leaseNamespace(
  config: Pick<AppConfig, 'leaderElection' | 'podNamespace'>,
  kubeConfig: KubeConfig,
): string {
  return (
    config.leaderElection.namespace ??
    config.podNamespace ??
    kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace ??
    'default'
  );
}

export function startIncidents(w: IncidentsWiring): RunningIncidents {
  const { config } = w;
  if (alertsConfigured(config) && w.runWorker && !w.notify) throw new Error('the incident worker needs a notifier');
  const keyPrefix = `${w.prefix}:${config.queue.name}:incidents`;
  const store = new IncidentStore(w.connection, keyPrefix);
  const mutes = new MuteStore(w.connection, keyPrefix);
  const queue = new IncidentQueue({
    connection: w.connection,
    name: `${config.queue.name}-incidents`,
    prefix: w.prefix,
    refreshDelayMs: w.refreshDelayMs ?? 1000,
    backoffMs: config.queue.backoffMs,
  });
  const enabled = alertsConfigured(config);
  const notify = w.notify;
  const channelFor = (ns: string) => alertsChannelFor(config, ns);
  const worker =
    enabled && w.runWorker && notify
      ? createIncidentWorker(
          {
            redisUrl: config.redisUrl,
            name: `${config.queue.name}-incidents`,
            prefix: w.prefix,
            concurrency: config.queue.concurrency,
            warn: w.logger.warn,
          },
          {
            diagnose: (target, signal) =>
              w.diagnose(target, signal, watcher?.inferenceService(target.namespace, target.name)),
            notify,
            store,
            mutes,
            queue,
            channelFor,
            groupWindowMs: config.alerts.groupWindowMs,
            ...(w.offerFixes ? { offerFixes: w.offerFixes } : {}),
          },
        )
      : null;
  const kubeConfig = w.kubeConfig;
  const watcher =
    enabled && w.runWatcher && kubeConfig
      ? startWatcherService({
          kubeConfig,
          namespaces: config.namespaces,
          store,
          jobs: queue,
          unreadyAfterMs: config.alerts.unreadyAfterMs,
          watched: (ns) => namespaceAllowed(config, ns) && channelFor(ns) !== null,
          lease: {
            namespace: leaseNamespace(config, kubeConfig),
            name: config.leaderElection.leaseName,
            durationMs: config.leaderElection.leaseDurationMs,
            ...(w.identity ? { identity: w.identity } : {}),
          },
          logger: w.logger,
        })
      : null;
  if (!enabled && w.runWatcher)
    w.logger.info('watcher: no alerts channel configured (alerts.channel), automatic incidents are off');
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
