/**
 * A proposal: one planned remediation waiting for a decision. The Slack button carries only its
 * opaque id; everything else (action, params, the plan with the resourceVersion it was computed
 * against, requester, thread, expiry) lives in Redis (ProposalStore).
 */
import { randomBytes } from 'node:crypto';
import type { TargetRef } from '../core/target-ref.js';
import type { Plan } from './types.js';

export type ProposalState =
  | 'pending'
  | 'approved'
  | 'applying'
  | 'applied'
  | 'verified'
  | 'failed'
  | 'rejected'
  | 'expired'
  | 'superseded';

export interface Proposal {
  id: string;
  action: string;
  params: Record<string, unknown>;
  plan: Plan;
  /** The InferenceService it is for. */
  target: TargetRef;
  /** The finding that led to it (null for /isvc rollout). */
  findingCode: string | null;
  /** Who asked for the diagnosis or the rollout (the two-person rule keeps them from approving). */
  requester: string;
  channel: string;
  threadTs: string;
  /** The message showing the InferenceService's verdict (a diagnosis' root): it shows the outcome once verified. */
  verdictTs?: string;
  /** The `/isvc rollout` message whose button asked for it: it shows the traffic once verified. */
  rolloutTs?: string;
  /** Re-planned after this user's click found the object changed (they asked for this plan). */
  replannedBy?: string;
  createdAt: number;
  expiresAt: number;
}

export interface ProposalRecord {
  proposal: Proposal;
  state: ProposalState;
  /** Who moved it to its state (approver, rejecter), and when. */
  decidedBy: string | null;
  decidedAt: number | null;
  /** The proposal message in the thread. */
  messageTs: string | null;
  /** The proposal that replaced it after a re-plan. */
  supersededBy: string | null;
  note: string | null;
}

/** An opaque id, safe as a BullMQ job id and a Slack button value. */
export function newProposalId(): string {
  return `rp-${randomBytes(12).toString('base64url')}`;
}

/** The requester of a fix offered with an automatic incident (no person asked for it). */
export const INCIDENT_REQUESTER = 'isvc-doctor';

export const PROPOSAL_ID = /^rp-[A-Za-z0-9_-]{16}$/;

export function isExpired(p: Proposal, now: number): boolean {
  return now >= p.expiresAt;
}
