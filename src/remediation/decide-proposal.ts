/**
 * A click on Approve or Reject, after the ack: reload the proposal, check the approver (user ids,
 * user groups, per-namespace lists, two-person rule), refuse an expired or used one, re-validate
 * against the live object (changed → re-plan and ask again), then move it to `approved` with a
 * compare-and-set (one winner among concurrent clicks on any replica) and queue the apply with
 * jobId = proposal id. Refusals are ephemeral and change nothing.
 */
import { errorMessage } from '../core/error-message.js';
import { describeRef } from '../kube/cluster-writer.js';
import { actionById } from './actions/index.js';
import { approverIdsFor, decideApproval, decideRejection, isUserGroupId } from './approval-policy.js';
import { actionContext } from './plan-proposal.js';
import { isExpired, PROPOSAL_ID, type ProposalRecord, type ProposalState } from './proposal.js';
import type { RemediationDeps } from './remediation-deps.js';
import { replanProposal } from './replan-proposal.js';

export interface Click {
  proposalId: string;
  user: string;
  channel: string;
  messageTs?: string;
  /** The Slack request of the click (carried into the apply job, for the logs). */
  requestId?: string;
}

export type ClickResult =
  | { kind: 'queued' | 'rejected' }
  | { kind: 'refused'; code: string }
  | { kind: 'replanned'; proposalId: string | null };

const DONE: Record<string, string> = {
  applied: 'applied',
  verified: 'applied',
  failed: 'tried and failed',
  rejected: 'rejected',
  expired: 'expired',
  superseded: 'replaced by a newer proposal',
};

async function refuse(
  deps: RemediationDeps,
  click: Click,
  threadTs: string | undefined,
  code: string,
  message: string,
  approvers?: string[],
  decidedBy?: string | null,
): Promise<ClickResult> {
  await deps
    .notify({
      kind: 'click-refused',
      channel: click.channel,
      user: click.user,
      ...(threadTs ? { threadTs } : {}),
      code,
      message,
      ...(approvers?.length ? { approvers } : {}),
      ...(decidedBy ? { decidedBy } : {}),
    })
    .catch((e: unknown) => deps.warn(`ephemeral: ${errorMessage(e)}`));
  return { kind: 'refused', code };
}

const requestOf = (click: Click) => (click.requestId ? { requestId: click.requestId } : {});
const tsOf = (rec: ProposalRecord) => (rec.messageTs ? { messageTs: rec.messageTs } : {});

/** The record, its message ts taken from the click when the offer's ts was not stored yet (a click can come first). */
async function load(deps: RemediationDeps, click: Click): Promise<ProposalRecord | null> {
  const rec = PROPOSAL_ID.test(click.proposalId) ? await deps.store.get(click.proposalId) : null;
  return rec && !rec.messageTs && click.messageTs ? { ...rec, messageTs: click.messageTs } : rec;
}

async function updateMessage(
  deps: RemediationDeps,
  rec: ProposalRecord,
  state: ProposalState,
  by: string | null,
  note?: string,
): Promise<void> {
  const ts = rec.messageTs;
  if (ts)
    await deps
      .notify({ kind: 'proposal-decided', proposal: rec.proposal, messageTs: ts, state, by, ...(note ? { note } : {}) })
      .catch((e: unknown) => deps.warn(`slack update: ${errorMessage(e)}`));
}

async function membersFor(deps: RemediationDeps, namespace: string) {
  return deps.groups.members(approverIdsFor(deps.config, namespace).filter(isUserGroupId));
}

export async function approveClick(deps: RemediationDeps, click: Click): Promise<ClickResult> {
  const rec = await load(deps, click);
  if (!rec) return refuse(deps, click, undefined, 'PROPOSAL_NOT_FOUND', 'this proposal is unknown or too old');
  const p = rec.proposal;
  const object = describeRef(p.plan.target);
  const decision = decideApproval({
    config: deps.config,
    namespace: p.target.namespace,
    user: click.user,
    requester: p.requester,
    groupMembers: await membersFor(deps, p.target.namespace),
  });
  if (!decision.allowed) {
    await deps.audit.append({
      event: 'refused',
      proposalId: p.id,
      action: p.action,
      object,
      actor: click.user,
      outcome: decision.code,
    });
    return refuse(deps, click, p.threadTs, decision.code, decision.message, decision.approvers);
  }
  if (rec.state === 'approved' || rec.state === 'applying') {
    await deps.enqueue({
      kind: 'remediate',
      proposalId: p.id,
      approver: rec.decidedBy ?? click.user,
      ...tsOf(rec),
      ...requestOf(click),
    }); // idempotent: recovers an approval whose job was lost
    return refuse(
      deps,
      click,
      p.threadTs,
      'PROPOSAL_ALREADY_APPROVED',
      'already approved, it is being applied',
      undefined,
      rec.decidedBy,
    );
  }
  if (rec.state !== 'pending')
    return refuse(
      deps,
      click,
      p.threadTs,
      'PROPOSAL_USED',
      `this proposal was already ${DONE[rec.state] ?? rec.state}`,
    );
  if (isExpired(p, deps.now())) {
    const moved = await deps.store.transition(p.id, ['pending'], 'expired', null, deps.now());
    if (moved.ok) {
      await deps.audit.append({ event: 'expired', proposalId: p.id, action: p.action, object, actor: click.user });
      await updateMessage(deps, rec, 'expired', null);
    }
    return refuse(deps, click, p.threadTs, 'PROPOSAL_EXPIRED', 'this proposal has expired; ask for a new diagnosis');
  }
  const action = actionById(p.action);
  if (!action)
    return refuse(deps, click, p.threadTs, 'REMEDIATION_UNKNOWN_ACTION', `this bot no longer knows ${p.action}`);
  const valid = await action.validate(actionContext(deps, p.target), p.plan);
  if (!valid.ok) {
    const next = await replanProposal(deps, rec, ['pending'], click.user, valid.message);
    if (next === null) return approveClick(deps, click); // another click moved it first: answer from its new state
    await deps
      .notify({
        kind: 'click-refused',
        channel: click.channel,
        user: click.user,
        threadTs: p.threadTs,
        code: 'PROPOSAL_STALE',
        message: `${valid.message}; re-planned against the live object${next !== 'none' ? ', approve the new proposal in the thread' : ''}`,
      })
      .catch(() => undefined);
    return { kind: 'replanned', proposalId: next === 'none' ? null : next };
  }
  const won = await deps.store.transition(p.id, ['pending'], 'approved', click.user, deps.now());
  if (!won.ok) return approveClick(deps, click);
  await deps.audit.append({ event: 'approved', proposalId: p.id, action: p.action, object, actor: click.user });
  await updateMessage(deps, rec, 'approved', click.user);
  await deps.enqueue({ kind: 'remediate', proposalId: p.id, approver: click.user, ...tsOf(rec), ...requestOf(click) });
  return { kind: 'queued' };
}

export async function rejectClick(deps: RemediationDeps, click: Click): Promise<ClickResult> {
  const rec = await load(deps, click);
  if (!rec) return refuse(deps, click, undefined, 'PROPOSAL_NOT_FOUND', 'this proposal is unknown or too old');
  const p = rec.proposal;
  const decision = decideRejection({
    config: deps.config,
    namespace: p.target.namespace,
    user: click.user,
    requester: p.requester,
    groupMembers: await membersFor(deps, p.target.namespace),
  });
  if (!decision.allowed) return refuse(deps, click, p.threadTs, decision.code, decision.message, decision.approvers);
  const moved = await deps.store.transition(p.id, ['pending'], 'rejected', click.user, deps.now());
  if (!moved.ok)
    return refuse(
      deps,
      click,
      p.threadTs,
      'PROPOSAL_USED',
      `this proposal was already ${DONE[moved.state] ?? moved.state}`,
      undefined,
      moved.by,
    );
  await deps.audit.append({
    event: 'rejected',
    proposalId: p.id,
    action: p.action,
    object: describeRef(p.plan.target),
    actor: click.user,
  });
  await updateMessage(deps, rec, 'rejected', click.user);
  return { kind: 'rejected' };
}
