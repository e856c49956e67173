/** Posts a stored proposal in its thread and remembers the message's ts (to update it when decided). */
import { renderProposal } from '../render/slack/render-proposal.js';
import type { Proposal } from './proposal.js';
import type { RemediationDeps } from './remediation-deps.js';

export async function postProposal(deps: Pick<RemediationDeps, 'poster' | 'store' | 'now'>, p: Proposal): Promise<string> {
  const ts = await deps.poster.post(p.channel, renderProposal(p, deps.now()), p.threadTs);
  await deps.store.setFields(p.id, { messageTs: ts });
  return ts;
}
