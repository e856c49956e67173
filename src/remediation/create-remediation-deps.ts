/** Builds the remediation flow's dependencies from the bot's config, Redis, Slack client and queue. */
import type { KubeConfig } from '@kubernetes/client-node';
import type { webApi } from '@slack/bolt';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { SlackPoster } from '../bot/slack-poster.js';
import type { AppConfig } from '../config.js';
import { diagnose } from '../app/diagnoser.js';
import { makeKubeClients } from '../kube/client.js';
import { ClusterWriter } from '../kube/cluster-writer.js';
import { AuditLog } from './audit-log.js';
import { ProposalStore } from './proposal-store.js';
import type { RemediationDeps } from './remediation-deps.js';
import { createUserGroupDirectory } from './user-group-directory.js';

export interface RemediationWiring {
  config: Pick<AppConfig, 'approvers' | 'remediation' | 'diagnosis'>;
  kubeConfig: KubeConfig;
  redis: Redis;
  /** Redis key prefix, e.g. "bull:isvc-doctor-diagnosis". */
  keyPrefix: string;
  poster: SlackPoster;
  slack: Pick<webApi.WebClient, 'usergroups'>;
  queue: Queue;
  warn(message: string): void;
}

export function createRemediationDeps(w: RemediationWiring): RemediationDeps {
  const r = w.config.remediation;
  return {
    config: { ...r, approvers: w.config.approvers, knativeNamespace: w.config.diagnosis.knativeNamespace },
    writer: new ClusterWriter(makeKubeClients(w.kubeConfig)),
    store: new ProposalStore(w.redis, w.keyPrefix),
    audit: new AuditLog(w.redis, w.keyPrefix),
    poster: w.poster,
    groups: createUserGroupDirectory(w.slack, { warn: w.warn }),
    enqueue: async (job) => {
      await w.queue.add('remediate', job as never, { jobId: job.proposalId, attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { age: 30 * 24 * 3600 }, removeOnFail: { age: 30 * 24 * 3600 } });
    },
    diagnose: (target, signal) => diagnose(w.kubeConfig, target, { config: w.config.diagnosis, ...(signal ? { signal } : {}) }),
    now: () => Date.now(),
    warn: w.warn,
  };
}
