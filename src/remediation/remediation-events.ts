/**
 * What the remediation flow tells people, as surface-neutral events: the notifier of a surface
 * renders and posts each one (src/notify/). Each says where it belongs: a proposal's own thread and
 * message, or the channel and thread of a command.
 */
import type { RolloutView } from './rollout-view.js';
import type { TargetRef } from '../core/target-ref.js';
import type { Report } from '../findings/types.js';
import type { Proposal, ProposalState } from './proposal.js';

export type VerifyOutcome =
  | { kind: 'fixed'; report: Report }
  | { kind: 'same'; report: Report }
  | { kind: 'new-root-cause'; report: Report }
  | { kind: 'unknown'; reason: string };

/** A thread of a channel (the thread of a diagnosis, a rollout, an incident). */
export interface ThreadRef {
  channel: string;
  threadTs: string;
}

/** A change applied from a rollout message's button: who approved it, which action, Ready once verified. */
export interface RolloutChange {
  by: string;
  action: string;
  ready: boolean;
}

export type RemediationEvent =
  /** Posted in the proposal's thread; the notifier resolves to the message's ts (kept to update it). */
  | { kind: 'proposal-offered'; proposal: Proposal; now: number }
  /** The proposal message after a decision (no buttons): who and what. */
  | {
      kind: 'proposal-decided';
      proposal: Proposal;
      messageTs: string;
      state: ProposalState;
      by: string | null;
      note?: string;
    }
  /** Only the one who clicked sees it; nothing was changed. */
  | {
      kind: 'click-refused';
      channel: string;
      user: string;
      threadTs?: string;
      code: string;
      message: string;
      /** Who may decide instead (user and user-group ids). */
      approvers?: string[];
      /** Who already decided the proposal (a user id; the renderer names them). */
      decidedBy?: string;
    }
  | { kind: 'remediation-applied'; proposal: Proposal; by: string }
  /** The write failed, or (`dryRunRefused`: the API server's reason) its dry run on approval was refused and nothing was written. */
  | { kind: 'remediation-failed'; proposal: Proposal; by: string; code: string; dryRunRefused?: string }
  /** In the thread; the proposal's verdict message (`verdictTs`) shows the outcome too. `by`: who approved. */
  | { kind: 'remediation-verified'; proposal: Proposal; outcome: VerifyOutcome; waitedSeconds: number; by?: string }
  /** A fix a finding offers that could not be planned (at the cap, nothing to change, role denied). */
  | { kind: 'offer-not-planned'; thread: ThreadRef; findingCode: string; code: string; message: string }
  /** A proposal superseded after a change could not be planned again. */
  | { kind: 'replan-failed'; proposal: Proposal; code: string; message: string }
  /** `/isvc rollout`: the root message; the notifier resolves to its ts (the thread). */
  | { kind: 'rollout-started'; target: TargetRef; channel: string; threadTs?: string; user: string }
  | { kind: 'rollout-target-unreadable'; target: TargetRef; thread: ThreadRef; code: string }
  | { kind: 'rollout-split'; target: TargetRef; thread: ThreadRef; apiVersion: string; lines: string[] }
  /** `/isvc rollout NAME` without an operation: one message with the revisions and the Promote / Roll back / Set split buttons. */
  | {
      kind: 'rollout-view';
      target: TargetRef;
      channel: string;
      threadTs?: string;
      user: string;
      view: RolloutView;
      /** Set: that rollout message is updated in place, after a change its button asked for (`after`). */
      messageTs?: string;
      after?: RolloutChange;
    }
  | { kind: 'rollout-op-not-offered'; thread: ThreadRef; action: string; code: string; message?: string }
  /** A fix asked for by an assistant or agent (MCP): the root message of the proposal's thread; resolves to its ts. */
  | {
      kind: 'fix-requested';
      target: TargetRef;
      channel: string;
      requester: string;
      action: string;
      findingCode: string | null;
    };
