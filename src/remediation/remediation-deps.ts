/** What the remediation flow needs, built once by the composition root (src/app/). */
import type { Notify } from '../core/notify.js';
import type { TargetRef } from '../core/target-ref.js';
import type { Report } from '../findings/types.js';
import type { ClusterWriter } from '../kube/cluster-writer.js';
import type { AuditLog } from './audit-log.js';
import type { ProposalStore } from './proposal-store.js';
import type { RemediationEvent } from './remediation-events.js';
import type { UserGroupDirectory } from './user-group-directory.js';

export interface RemediationConfig {
  approvers: string[];
  namespaceApprovers: Record<string, string[]>;
  twoPersonRule: boolean;
  proposalTtlMs: number;
  maxMemoryBytes: number;
  /** How long verification waits for the controller and a healthy diagnosis. */
  verifyTimeoutMs: number;
  verifyPollMs: number;
  knativeNamespace: string;
}

export interface RemediateJob {
  kind: 'remediate';
  proposalId: string;
  approver: string;
  /** The ts of the clicked proposal message, as the click gave it: the message to update when the record has none stored yet. */
  messageTs?: string;
  /** The Slack request (the click) that queued it, for the logs. */
  requestId?: string;
}

export interface RemediationDeps {
  config: RemediationConfig;
  writer: ClusterWriter;
  store: ProposalStore;
  audit: AuditLog;
  /** Where the flow's outcomes go (the Slack notifier renders and posts them). */
  notify: Notify<RemediationEvent>;
  groups: UserGroupDirectory;
  /** Adds the apply job with jobId = proposal id (idempotent). */
  enqueue(job: RemediateJob): Promise<void>;
  diagnose(target: TargetRef, signal?: AbortSignal): Promise<Report>;
  now(): number;
  warn(message: string): void;
}
