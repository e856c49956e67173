/**
 * The cluster job worker of `serve`: gives each job kind (src/queue/jobs/) what it needs: the
 * diagnoser (a diagnosis is cancelled at shutdown, so BullMQ retries it on another worker), the
 * namespace lister for `/isvc status`, remediation offers after each report, the remediation flow for
 * the apply jobs and, on a cluster's agent, the clicks, commands and MCP calls the web process hands over;
 * metrics and job log lines around them.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Worker } from 'bullmq';
import type { BotMetrics } from '../bot/metrics.js';
import type { AppConfig } from '../config.js';
import type { Logger } from '../core/logger.js';
import type { Notify } from '../core/notify.js';
import type { TargetRef } from '../core/target-ref.js';
import { listIsvcStatus, listIsvcStatusIn } from '../diagnosis/list-isvc-status.js';
import type { DiagnosisEvent } from '../queue/diagnosis-events.js';
import { createClusterJobWorker } from '../queue/cluster-job-worker.js';
import type { CommandJobData } from '../queue/jobs/command-job.js';
import type { McpCallResult, McpJobData } from '../queue/jobs/mcp-job.js';
import type { SubscriberStore } from '../queue/subscriber-store.js';
import { offerRemediations } from '../remediation/offer-remediations.js';
import type { RemediationDeps } from '../remediation/remediation-deps.js';
import type { Diagnoser } from './diagnoser.js';
import { logJobs } from './job-log.js';

export interface ClusterJobWorkerWiring {
  config: Pick<AppConfig, 'redisUrl' | 'queue' | 'namespaces'>;
  prefix: string;
  kubeConfig: KubeConfig;
  diagnose: Diagnoser;
  store: SubscriberStore;
  /** ClusterJobQueue.rememberVerdictRoot: a followed name's root messages answer to its Re-diagnose. */
  rememberVerdictRoot?(channel: string, rootTs: string, target: TargetRef): Promise<void>;
  notify: Notify<DiagnosisEvent>;
  remediation: RemediationDeps;
  metrics: BotMetrics;
  logger: Logger;
  /** The cluster this worker reads, named when a command's job gives up (the agent's cluster, else the kubeconfig's). */
  clusterName?: string;
  /** A cluster agent's: runs a command the web process handed over, as if typed here (clicks need only `remediation`). */
  runForwardedCommand?(data: CommandJobData): Promise<void>;
  /** A cluster agent's: runs a tool call of the web process' MCP endpoint on this cluster. */
  runMcpCall?(data: McpJobData): Promise<McpCallResult>;
  /**
   * The InferenceService as this process's watcher holds it (synced, in a watched namespace), or
   * undefined: a diagnosis starts from it instead of asking the API server again.
   */
  held?(target: TargetRef): Parameters<Diagnoser>[2];
}

/** Rejects as soon as the signal aborts (the work itself may go on; its result is dropped). */
function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(`cancelled: ${String(signal.reason ?? 'shutting down')}`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function startClusterJobWorker(w: ClusterJobWorkerWiring): Worker {
  const { remediation, metrics } = w;
  const worker = createClusterJobWorker(
    {
      redisUrl: w.config.redisUrl,
      name: w.config.queue.name,
      concurrency: w.config.queue.concurrency,
      prefix: w.prefix,
    },
    {
      diagnose: (target, signal) => abortable(w.diagnose(target, signal, w.held?.(target)), signal),
      listStatus: (namespace) =>
        namespace === null
          ? listIsvcStatusIn(w.kubeConfig, w.config.namespaces)
          : listIsvcStatus(w.kubeConfig, namespace),
      notify: w.notify,
      store: w.store,
      ...(w.rememberVerdictRoot ? { rememberVerdictRoot: w.rememberVerdictRoot } : {}),
      backoffMs: w.config.queue.backoffMs,
      jobTimeoutMs: w.config.queue.jobTimeoutMs,
      onDiagnosis: (outcome, report, seconds) => metrics.diagnosisDone(outcome, report, seconds),
      afterReport: (report, threads) =>
        offerRemediations(
          remediation,
          report,
          threads.map((t) => ({
            channel: t.channel,
            threadTs: t.threadTs,
            user: t.user,
            verdictTs: t.verdictTs ?? t.rootTs,
          })),
        ),
      remediation,
      onRemediation: (action, state) => metrics.remediationDone(action, state),
      warn: (m) => w.logger.warn(m),
      ...(w.clusterName ? { clusterName: w.clusterName } : {}),
      ...(w.runForwardedCommand ? { forwardedClicks: remediation, runForwardedCommand: w.runForwardedCommand } : {}),
      ...(w.runMcpCall ? { runMcpCall: w.runMcpCall } : {}),
    },
  );
  logJobs(worker, w.logger);
  return worker;
}
