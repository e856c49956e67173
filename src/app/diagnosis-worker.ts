/**
 * The diagnosis worker of `serve`: diagnoses (cancelled at shutdown, so BullMQ retries them on
 * another worker), `/isvc status` lists, remediation offers after each report, and the apply jobs of
 * approved proposals; metrics and job log lines around them.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Worker } from 'bullmq';
import type { BotMetrics } from '../bot/metrics.js';
import type { AppConfig } from '../config.js';
import type { Logger } from '../core/logger.js';
import type { Notify } from '../core/notify.js';
import type { TargetRef } from '../core/target-ref.js';
import { listIsvcStatus } from '../diagnosis/list-isvc-status.js';
import type { DiagnosisEvent } from '../queue/diagnosis-events.js';
import { createDiagnosisWorker } from '../queue/diagnosis-worker.js';
import type { JobDeps } from '../queue/process-job.js';
import type { SubscriberStore } from '../queue/subscriber-store.js';
import { applyProposal } from '../remediation/apply-proposal.js';
import { offerRemediations } from '../remediation/offer-remediations.js';
import type { RemediationDeps } from '../remediation/remediation-deps.js';
import type { Diagnoser } from './diagnoser.js';
import { logJobs } from './job-log.js';

export interface DiagnosisWorkerWiring {
  config: Pick<AppConfig, 'redisUrl' | 'queue'>;
  prefix: string;
  kubeConfig: KubeConfig;
  diagnose: Diagnoser;
  store: SubscriberStore;
  notify: Notify<DiagnosisEvent>;
  remediation: RemediationDeps;
  metrics: BotMetrics;
  logger: Logger;
  /** A cluster agent's: clicks and commands handed over by the web process. */
  forwarded?: JobDeps['forwarded'];
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

export function startDiagnosisWorker(w: DiagnosisWorkerWiring): Worker {
  const { remediation, metrics } = w;
  const worker = createDiagnosisWorker(
    { redisUrl: w.config.redisUrl, name: w.config.queue.name, concurrency: w.config.queue.concurrency, prefix: w.prefix },
    {
      diagnose: (target, signal) => abortable(w.diagnose(target, signal, w.held?.(target)), signal),
      listStatus: (namespace) => listIsvcStatus(w.kubeConfig, namespace),
      notify: w.notify,
      store: w.store,
      backoffMs: w.config.queue.backoffMs,
      jobTimeoutMs: w.config.queue.jobTimeoutMs,
      onDiagnosis: (outcome, report, seconds) => metrics.diagnosisDone(outcome, report, seconds),
      afterReport: (report, threads) => offerRemediations(remediation, report, threads.map((t) => ({ channel: t.channel, threadTs: t.threadTs, user: t.user }))),
      remediate: async (data, signal) => {
        const action = async () => (await remediation.store.get(data.proposalId).catch(() => null))?.proposal.action ?? 'unknown';
        try {
          const result = await applyProposal(remediation, data, signal);
          metrics.remediationDone(await action(), result.state);
          return result;
        } catch (error) {
          metrics.remediationDone(await action(), 'error');
          throw error;
        }
      },
      warn: (m) => w.logger.warn(m),
      ...(w.forwarded ? { forwarded: w.forwarded } : {}),
    },
  );
  logJobs(worker, w.logger);
  return worker;
}
