/**
 * The object changed since a proposal was planned: mark it superseded (once, whoever notices
 * first), plan again against the live object and post the new proposal, so a person approves the
 * change that would really be made. A stale patch is never applied.
 */
import { describeRef } from '../kube/cluster-writer.js';
import { context } from '../render/slack/block-kit.js';
import { renderProposalDecided } from '../render/slack/render-proposal.js';
import { escapeMrkdwn } from '../render/slack/limits.js';
import { planProposal } from './plan-proposal.js';
import { postProposal } from './post-proposal.js';
import type { ProposalRecord, ProposalState } from './proposal.js';
import { RemediationError } from '../changes/remediation-error.js';
import type { RemediationDeps } from './remediation-deps.js';

/** Returns the new proposal's id, null when another click already re-planned, or 'none' when nothing is left to do. */
export async function replanProposal(deps: RemediationDeps, rec: ProposalRecord, from: ProposalState[], actor: string, reason: string): Promise<string | null | 'none'> {
  const p = rec.proposal;
  const moved = await deps.store.transition(p.id, from, 'superseded', actor, deps.now());
  if (!moved.ok) return null;
  await deps.audit.append({ event: 'superseded', proposalId: p.id, action: p.action, object: describeRef(p.plan.target), actor, outcome: reason });
  if (rec.messageTs) await deps.poster.update(p.channel, rec.messageTs, renderProposalDecided(p, 'superseded', null, reason)).catch((e: unknown) => deps.warn(`slack update: ${String(e)}`));
  try {
    const next = await planProposal(deps, { action: p.action, params: p.params, target: p.target, findingCode: p.findingCode, requester: p.requester, channel: p.channel, threadTs: p.threadTs });
    await deps.store.setFields(p.id, { supersededBy: next.id });
    await postProposal(deps, next);
    return next.id;
  } catch (error) {
    const code = error instanceof RemediationError ? error.code : 'INTERNAL_ERROR';
    const text = `Re-planning ${p.action} after the change gave no new proposal (${code}): ${error instanceof RemediationError ? error.message : 'see the bot logs'}`;
    deps.warn(`replan ${p.id}: ${error instanceof Error ? error.message : String(error)}`);
    await deps.poster.post(p.channel, { text, blocks: [context(`ℹ️ ${escapeMrkdwn(text)}`)] }, p.threadTs).catch(() => undefined);
    return 'none';
  }
}
