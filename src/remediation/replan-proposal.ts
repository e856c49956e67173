/**
 * The object changed since a proposal was planned: mark it superseded (once, whoever notices
 * first), plan again against the live object and post the new proposal, so a person approves the
 * change that would really be made. A stale patch is never applied.
 */
import { RemediationError } from '../changes/remediation-error.js';
import { errorMessage } from '../core/error-message.js';
import { describeRef } from '../kube/cluster-writer.js';
import { planProposal } from './plan-proposal.js';
import { postProposal } from './post-proposal.js';
import type { ProposalRecord, ProposalState } from './proposal.js';
import type { RemediationDeps } from './remediation-deps.js';

/** Returns the new proposal's id, null when another click already re-planned, or 'none' when nothing is left to do. */
export async function replanProposal(
  deps: RemediationDeps,
  rec: ProposalRecord,
  from: ProposalState[],
  actor: string,
  reason: string,
  /** The person whose click found the change (the approver when the apply job found it). */
  clickedBy: string | null = actor === 'isvc-doctor' ? null : actor,
): Promise<string | null | 'none'> {
  const p = rec.proposal;
  const moved = await deps.store.transition(p.id, from, 'superseded', actor, deps.now());
  if (!moved.ok) return null;
  await deps.audit.append({
    event: 'superseded',
    proposalId: p.id,
    action: p.action,
    object: describeRef(p.plan.target),
    actor,
    outcome: reason,
  });
  // a click can come before the proposal's message ts was stored with the record it read: read it again
  const ts = rec.messageTs ?? (await deps.store.get(p.id))?.messageTs;
  if (ts)
    await deps
      .notify({ kind: 'proposal-decided', proposal: p, messageTs: ts, state: 'superseded', by: null, note: reason })
      .catch((e: unknown) => deps.warn(`slack update: ${errorMessage(e)}`));
  try {
    const next = await planProposal(deps, {
      action: p.action,
      params: p.params,
      target: p.target,
      findingCode: p.findingCode,
      requester: p.requester,
      channel: p.channel,
      threadTs: p.threadTs,
      ...(p.verdictTs ? { verdictTs: p.verdictTs } : {}),
      ...(p.rolloutTs ? { rolloutTs: p.rolloutTs } : {}),
      ...(clickedBy ? { replannedBy: clickedBy } : {}),
    });
    await deps.store.setFields(p.id, { supersededBy: next.id });
    await postProposal(deps, next);
    return next.id;
  } catch (error) {
    const code = error instanceof RemediationError ? error.code : 'INTERNAL_ERROR';
    deps.warn(`replan ${p.id}: ${errorMessage(error)}`);
    await deps
      .notify({
        kind: 'replan-failed',
        proposal: p,
        code,
        message: error instanceof RemediationError ? error.message : 'see the bot logs',
      })
      .catch(() => undefined);
    return 'none';
  }
}
