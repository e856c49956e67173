/** The remediation flow's dependencies, from the config, the cluster, Redis, the job producer and the notifier. */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config.js';
import type { Notify } from '../core/notify.js';
import { makeKubeClients } from '../kube/client.js';
import { ClusterWriter } from '../kube/cluster-writer.js';
import { AuditLog } from '../remediation/audit-log.js';
import { ProposalStore } from '../remediation/proposal-store.js';
import type { RemediateJob, RemediationDeps } from '../remediation/remediation-deps.js';
import type { RemediationEvent } from '../remediation/remediation-events.js';
import type { UserGroupDirectory } from '../remediation/user-group-directory.js';
import type { Diagnoser } from './diagnoser.js';

export interface RemediationWiring {
  config: Pick<AppConfig, 'approvers' | 'remediation' | 'diagnosis'>;
  kubeConfig: KubeConfig;
  redis: Redis;
  /** Redis key prefix, e.g. "bull:isvc-doctor-diagnosis". */
  keyPrefix: string;
  notify: Notify<RemediationEvent>;
  groups: UserGroupDirectory;
  /** Adds the apply job (jobId = proposal id). */
  enqueue(job: RemediateJob): Promise<void>;
  diagnose: Diagnoser;
  warn(message: string): void;
  /** The clock of proposal expiry and verification (default Date.now). */
  now?: () => number;
}

export function createRemediationDeps(w: RemediationWiring): RemediationDeps {
  return {
    config: {
      ...w.config.remediation,
      approvers: w.config.approvers,
      knativeNamespace: w.config.diagnosis.knativeNamespace,
    },
    writer: new ClusterWriter(makeKubeClients(w.kubeConfig)),
    store: new ProposalStore(w.redis, w.keyPrefix),
    audit: new AuditLog(w.redis, w.keyPrefix, w.config.remediation.auditMaxEntries),
    notify: w.notify,
    groups: w.groups,
    enqueue: w.enqueue,
    diagnose: w.diagnose,
    now: w.now ?? (() => Date.now()),
    warn: w.warn,
  };
}
