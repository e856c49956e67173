/**
 * Plans a remediation and stores it as a pending proposal (not yet posted): validates the params
 * against the action's schema, computes the change against the live object with dryRun=All, and
 * records "proposed" in the audit log.
 */
import { RemediationError } from '../changes/remediation-error.js';
import type { TargetRef } from '../core/target-ref.js';
import type { AnsweredReads } from '../kube/cluster-reader.js';
import { describeRef } from '../kube/cluster-writer.js';
import { ForbiddenError } from '../kube/errors.js';
import { actionById } from './actions/index.js';
import { newProposalId, type Proposal } from './proposal.js';
import type { RemediationDeps } from './remediation-deps.js';
import type { ActionContext, Plan } from './types.js';

export interface ProposalRequest {
  action: string;
  params: Record<string, unknown>;
  target: TargetRef;
  findingCode: string | null;
  requester: string;
  channel: string;
  threadTs: string;
  verdictTs?: string;
  rolloutTs?: string;
  replannedBy?: string;
  /** What the diagnosis that offered the fix read (a proposal planned right after it reads nothing twice). */
  seen?: AnsweredReads;
}

export function actionContext(
  deps: Pick<RemediationDeps, 'writer' | 'config'>,
  target: TargetRef,
  seen?: AnsweredReads,
): ActionContext {
  return {
    writer: deps.writer,
    target,
    settings: { maxMemoryBytes: deps.config.maxMemoryBytes, knativeNamespace: deps.config.knativeNamespace },
    ...(seen ? { seen } : {}),
  };
}

export async function planProposal(deps: RemediationDeps, req: ProposalRequest): Promise<Proposal> {
  const action = actionById(req.action);
  if (!action) throw new RemediationError('REMEDIATION_UNKNOWN_ACTION', `no action ${req.action}`);
  const parsed = action.params.safeParse(req.params);
  if (!parsed.success)
    throw new RemediationError(
      'REMEDIATION_BAD_PARAMS',
      `${req.action}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
    );
  let plan: Plan;
  try {
    plan = await action.plan(actionContext(deps, req.target, req.seen), parsed.data);
  } catch (error) {
    if (error instanceof ForbiddenError)
      throw new RemediationError(
        'REMEDIATION_NOT_APPLICABLE',
        `the bot's remediation role may not do this: ${error.message}`,
      );
    throw error;
  }
  const now = deps.now();
  const proposal: Proposal = {
    id: newProposalId(),
    action: req.action,
    params: parsed.data,
    plan,
    target: req.target,
    findingCode: req.findingCode,
    requester: req.requester,
    channel: req.channel,
    threadTs: req.threadTs,
    ...(req.verdictTs ? { verdictTs: req.verdictTs } : {}),
    ...(req.rolloutTs ? { rolloutTs: req.rolloutTs } : {}),
    ...(req.replannedBy ? { replannedBy: req.replannedBy } : {}),
    createdAt: now,
    expiresAt: now + deps.config.proposalTtlMs,
  };
  await deps.store.create(proposal);
  await deps.audit.append({
    event: 'proposed',
    proposalId: proposal.id,
    action: proposal.action,
    object: describeRef(plan.target),
    actor: req.requester,
    patch: JSON.stringify(plan.write),
  });
  return proposal;
}
