/**
 * The worker's `remediate` job (jobId = proposal id): apply an approved proposal exactly once,
 * record it, and verify. A proposal planned from a diagnosis' reads is dry-run first (while still
 * `approved`: a retry that finds it `applying` may already have written, and does not dry-run).
 * `approved → applying` is a compare-and-set, and the action's apply recognises a write it already
 * made for this proposal, so a job retried after a worker crash neither repeats the write nor loses
 * the approval. A conflict (the object changed after the click) re-plans and asks again. Cluster
 * unreachable: rethrown, BullMQ retries. The message to update is the stored one, else the one the
 * click named (the job's `messageTs`: a click can come before the offer's ts was stored).
 */
import { UnrecoverableError } from 'bullmq';
import { errorCode, errorMessage } from '../core/error-message.js';
import { describeRef, ObjectGoneError, WriteConflictError } from '../kube/cluster-writer.js';
import { ClusterUnreachableError } from '../kube/errors.js';
import { actionById } from './actions/index.js';
import { dryRunApproved, needsDryRun } from './dry-run-approved.js';
import { actionContext } from './plan-proposal.js';
import type { Proposal, ProposalRecord, ProposalState } from './proposal.js';
import type { RemediateJob, RemediationDeps } from './remediation-deps.js';
import { replanProposal } from './replan-proposal.js';
import { rolloutView } from './rollout-view.js';
import { verifyRemediation } from './verify-remediation.js';
import type { ApplyOutcome } from './types.js';

export type RemediateResult = { outcome: 'remediation'; state: ProposalState | 'missing' };

const quiet = (deps: RemediationDeps) => (e: unknown) => deps.warn(`remediation: ${errorMessage(e)}`);

async function recordEvent(
  deps: RemediationDeps,
  p: Proposal,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
): Promise<void> {
  const isvc = await deps.writer.get(p.plan.isvc).catch(() => null);
  await deps.writer
    .createEvent(
      { ...p.plan.isvc, ...(isvc?.metadata.uid ? { uid: isvc.metadata.uid } : {}) },
      { type, reason, message },
    )
    .catch(quiet(deps));
}

async function setMessage(
  deps: RemediationDeps,
  rec: ProposalRecord,
  state: ProposalState,
  by: string,
  note?: string,
): Promise<void> {
  const ts = rec.messageTs ?? (await deps.store.get(rec.proposal.id))?.messageTs;
  if (ts)
    await deps
      .notify({ kind: 'proposal-decided', proposal: rec.proposal, messageTs: ts, state, by, ...(note ? { note } : {}) })
      .catch(quiet(deps));
}

export async function applyProposal(
  deps: RemediationDeps,
  job: RemediateJob,
  signal?: AbortSignal,
): Promise<RemediateResult> {
  const stored = await deps.store.get(job.proposalId);
  if (!stored) return { outcome: 'remediation', state: 'missing' };
  // a click can come before the offer's ts was stored: the click's own ts names the message to update
  const rec = stored.messageTs || !job.messageTs ? stored : { ...stored, messageTs: job.messageTs };
  const p = rec.proposal;
  const approver = rec.decidedBy ?? job.approver;
  if (rec.state === 'applied') return verifyAndRecord(deps, rec, approver, signal);
  if (rec.state !== 'approved' && rec.state !== 'applying') return { outcome: 'remediation', state: rec.state };
  const action = actionById(p.action);
  if (!action) throw new UnrecoverableError(`REMEDIATION_UNKNOWN_ACTION: ${p.action}`);
  if (needsDryRun(rec)) {
    const checked = await dryRunApproved(deps, rec, action, approver);
    if (!checked.ok) return { outcome: 'remediation', state: checked.state };
  }
  if (rec.state === 'approved') {
    const moved = await deps.store.transition(p.id, ['approved'], 'applying', approver, deps.now());
    if (!moved.ok && moved.state !== 'applying')
      return { outcome: 'remediation', state: moved.state === 'missing' ? 'missing' : moved.state };
  }
  const object = describeRef(p.plan.target);
  const patch = JSON.stringify(p.plan.write);
  let applied: ApplyOutcome;
  try {
    applied = await action.apply(actionContext(deps, p.target), p.plan, p.id);
  } catch (error) {
    if (error instanceof ClusterUnreachableError) throw error;
    if (error instanceof WriteConflictError || error instanceof ObjectGoneError) {
      await replanProposal(
        deps,
        { ...rec, state: 'applying' },
        ['applying'],
        'isvc-doctor',
        `${object} changed after the approval`,
        approver,
      );
      return { outcome: 'remediation', state: 'superseded' };
    }
    const code = errorCode(error);
    await deps.store.transition(p.id, ['applying'], 'failed', approver, deps.now());
    await deps.audit.append({
      event: 'failed',
      proposalId: p.id,
      action: p.action,
      object,
      actor: approver,
      patch,
      outcome: code,
    });
    await recordEvent(
      deps,
      p,
      'Warning',
      'RemediationFailed',
      `isvc-doctor: ${p.action} approved by Slack user ${approver} failed (${code})`,
    );
    await deps.notify({ kind: 'remediation-failed', proposal: p, by: approver, code }).catch(quiet(deps));
    await setMessage(deps, rec, 'failed', approver, code);
    return { outcome: 'remediation', state: 'failed' };
  }
  await deps.store.transition(p.id, ['applying'], 'applied', approver, deps.now());
  await deps.audit.append({
    event: 'applied',
    proposalId: p.id,
    action: p.action,
    object,
    actor: approver,
    patch,
    outcome: applied,
  });
  await recordEvent(
    deps,
    p,
    'Normal',
    'RemediationApplied',
    `isvc-doctor: ${p.action} approved by Slack user ${approver} (proposal ${p.id}): ${p.plan.summary}`,
  );
  await deps.notify({ kind: 'remediation-applied', proposal: p, by: approver }).catch(quiet(deps));
  await setMessage(deps, rec, 'applied', approver);
  return verifyAndRecord(deps, rec, approver, signal);
}

async function verifyAndRecord(
  deps: RemediationDeps,
  rec: ProposalRecord,
  approver: string,
  signal?: AbortSignal,
): Promise<RemediateResult> {
  const p = rec.proposal;
  const { outcome, waitedSeconds } = await verifyRemediation(deps, p, signal);
  const moved = await deps.store.transition(p.id, ['applied'], 'verified', approver, deps.now());
  if (!moved.ok) return { outcome: 'remediation', state: moved.state === 'missing' ? 'missing' : moved.state };
  const result =
    outcome.kind === 'unknown' ? outcome.kind : `${outcome.kind}:${outcome.report.rootCause ?? 'ISVC_READY'}`;
  await deps.audit.append({
    event: 'verified',
    proposalId: p.id,
    action: p.action,
    object: describeRef(p.plan.target),
    actor: 'isvc-doctor',
    outcome: result,
  });
  await deps
    .notify({ kind: 'remediation-verified', proposal: p, outcome, waitedSeconds, by: approver })
    .catch(quiet(deps));
  if (p.rolloutTs) await showRolloutAfter(deps, p, p.rolloutTs, approver, outcome.kind === 'fixed');
  if (outcome.kind === 'fixed') await setMessage(deps, rec, 'verified', approver);
  return { outcome: 'remediation', state: 'verified' };
}

/** The `/isvc rollout` message that asked for the change shows the traffic after it, and the buttons that still apply. */
async function showRolloutAfter(
  deps: RemediationDeps,
  p: Proposal,
  messageTs: string,
  by: string,
  ready: boolean,
): Promise<void> {
  const live = await deps.writer.get(p.plan.isvc).catch(() => null);
  if (!live) return;
  await deps
    .notify({
      kind: 'rollout-view',
      target: p.target,
      channel: p.channel,
      user: p.requester,
      view: rolloutView(live),
      messageTs,
      after: { by, action: p.action, ready },
    })
    .catch(quiet(deps));
}
