/** Offers a stored proposal in its thread and remembers the message's ts (to update it when decided). */
import type { Proposal } from './proposal.js';
import type { RemediationDeps } from './remediation-deps.js';

export async function postProposal(
  deps: Pick<RemediationDeps, 'notify' | 'store' | 'now'>,
  p: Proposal,
): Promise<string | null> {
  const ts = await deps.notify({ kind: 'proposal-offered', proposal: p, now: deps.now() });
  if (ts) await deps.store.setFields(p.id, { messageTs: ts });
  return ts;
}
