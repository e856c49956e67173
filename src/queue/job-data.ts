/**
 * What the job kinds' data share (each kind's own schema is in its file under jobs/). A subscriber is
 * one Slack thread that waits for a diagnosis: the worker replies in `threadTs` and turns the message
 * `rootTs` into the verdict.
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
  /** Asked again in the thread of this InferenceService's verdict: that root message, brought up to date too. */
  verdictTs: z.string().min(1).optional(),
});
export type Subscriber = z.infer<typeof subscriberSchema>;

/** The Slack request that queued a job: its log lines and the worker's carry it. */
export const requestIdSchema = z.string().max(64).optional();

export const targetSchema = z.object({
  namespace: isvcName,
  name: isvcName,
  kind: z.enum(['isvc', 'llmisvc']).optional(),
  namespaceDefaulted: z.boolean().optional(),
});

/** Deduplication id for "the diagnosis of this InferenceService" (BullMQ ids cannot contain ':'). */
export function diagnosisDedupId(target: { namespace: string; name: string }): string {
  return `diagnose__${target.namespace}__${target.name}`;
}

/** A fresh job id for one diagnosis run. */
export function newDiagnosisJobId(target: { namespace: string; name: string }, now = Date.now()): string {
  return `${diagnosisDedupId(target)}__${now.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
