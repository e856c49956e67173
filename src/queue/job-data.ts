/**
 * What a job carries, validated when the worker picks it up (bad data → UnrecoverableError, no retry).
 * A subscriber is one Slack thread that waits for a diagnosis: the worker replies in `threadTs`
 * and turns the message `rootTs` into the verdict.
 */
import { z } from 'zod';
import { dns1123Label as isvcName } from '../core/names.js';

export const subscriberSchema = z.object({
  channel: z.string().min(1),
  /** The thread the results go to. */
  threadTs: z.string().min(1),
  /** The bot's "Diagnosing …" message, updated to the verdict. */
  rootTs: z.string().min(1),
  /** Who asked (a Slack user id). */
  user: z.string().min(1),
});
export type Subscriber = z.infer<typeof subscriberSchema>;

/** The Slack request that queued a job: its log lines and the worker's carry it. */
const requestId = z.string().max(64).optional();

export const targetSchema = z.object({ namespace: isvcName, name: isvcName });

export const diagnoseJobSchema = z.object({
  kind: z.literal('diagnose'),
  target: targetSchema,
  subscriber: subscriberSchema,
  requestedAt: z.string(),
  requestId,
});
export type DiagnoseJobData = z.infer<typeof diagnoseJobSchema>;

export const statusJobSchema = z.object({
  kind: z.literal('status'),
  namespace: isvcName,
  channel: z.string().min(1),
  user: z.string().min(1),
  threadTs: z.string().min(1).optional(),
  requestId,
});
export type StatusJobData = z.infer<typeof statusJobSchema>;

/** Apply an approved remediation proposal (jobId = the proposal id, so adding it twice is one job). */
export const remediateJobSchema = z.object({
  kind: z.literal('remediate'),
  proposalId: z.string().regex(/^rp-[A-Za-z0-9_-]{16}$/, 'not a proposal id'),
  approver: z.string().min(1),
  messageTs: z.string().max(32).optional(),
  requestId,
});
export type RemediateJobData = z.infer<typeof remediateJobSchema>;

/** Multi-cluster: an Approve / Reject click the web process hands to the proposal's cluster agent (it validates against the live object). */
export const clickJobSchema = z.object({
  kind: z.literal('click'),
  decision: z.enum(['approve', 'reject']),
  click: z.object({ proposalId: z.string().min(1).max(64), user: z.string().min(1), channel: z.string(), messageTs: z.string().optional(), requestId }),
  requestId,
});
export type ClickJobData = z.infer<typeof clickJobSchema>;

/** Multi-cluster: a command that reads the cluster itself (rollout), run by the cluster's agent as if typed there. */
export const commandJobSchema = z.object({
  kind: z.literal('command'),
  text: z.string().max(4000),
  channel: z.string().min(1),
  user: z.string().min(1),
  threadTs: z.string().min(1).optional(),
  requestId,
});
export type CommandJobData = z.infer<typeof commandJobSchema>;

export const jobDataSchema = z.discriminatedUnion('kind', [diagnoseJobSchema, statusJobSchema, remediateJobSchema, clickJobSchema, commandJobSchema]);
export type JobData = z.infer<typeof jobDataSchema>;

/** Deduplication id for "the diagnosis of this InferenceService" (BullMQ ids cannot contain ':'). */
export function diagnosisDedupId(target: { namespace: string; name: string }): string {
  return `diagnose__${target.namespace}__${target.name}`;
}

/** A fresh job id for one diagnosis run. */
export function newDiagnosisJobId(target: { namespace: string; name: string }, now = Date.now()): string {
  return `${diagnosisDedupId(target)}__${now.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

