/**
 * The API server's check of an approved proposal that was planned from a diagnosis' reads
 * (`plan.checkedBy: 'reads'`), made once, right before the write: the planned write with
 * dryRun=All. The object moved, or the answer changes other fields than the proposal showed:
 * re-planned and asked again, like a conflict at apply time. The API server refuses (the remediation
 * role, admission, validation): the proposal fails with the server's reason, nothing written.
 */
import type { FieldChange } from '../changes/field-changes.js';
import { errorCode, errorMessage } from '../core/error-message.js';
import { describeRef, ObjectGoneError, WriteConflictError } from '../kube/cluster-writer.js';
import { ClusterUnreachableError, ForbiddenError } from '../kube/errors.js';
import { redactText } from '../logs/redact.js';
import { actionContext } from './plan-proposal.js';
import type { ProposalRecord } from './proposal.js';
import type { RemediationDeps } from './remediation-deps.js';
import { replanProposal } from './replan-proposal.js';
import type { RemediationAction } from './types.js';

export type DryRunVerdict = { ok: true } | { ok: false; state: 'superseded' | 'failed' };

const sortedKeys = (_key: string, v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v;
const canonical = (v: unknown) => JSON.stringify(v, sortedKeys) ?? '(not set)';
/** The same changes compare equal whatever their order, key order, or a stored copy's dropped `undefined`. */
const key = (changes: FieldChange[]) =>
  changes
    .map((c) => `${c.path}: ${canonical(c.before)} → ${canonical(c.after)}`)
    .sort()
    .join('\n');

/** Whether the approved proposal still needs the API server's dry run (planned from reads, not yet applying). */
export function needsDryRun(rec: ProposalRecord): boolean {
  return rec.state === 'approved' && rec.proposal.plan.checkedBy === 'reads';
}

export async function dryRunApproved(
  deps: RemediationDeps,
  rec: ProposalRecord,
  action: RemediationAction<any>,
  approver: string,
): Promise<DryRunVerdict> {
  const p = rec.proposal;
  const object = describeRef(p.plan.target);
  let changes: FieldChange[];
  try {
    changes = await action.dryRun(actionContext(deps, p.target), p.plan);
  } catch (error) {
    if (error instanceof ClusterUnreachableError) throw error; // BullMQ retries the job
    if (error instanceof WriteConflictError || error instanceof ObjectGoneError) {
      await replanProposal(deps, rec, ['approved'], 'isvc-doctor', `${object} changed after the approval`, approver);
      return { ok: false, state: 'superseded' };
    }
    const forbidden = error instanceof ForbiddenError;
    const code = forbidden ? 'REMEDIATION_NOT_APPLICABLE' : errorCode(error);
    // the API server's answer may quote the object: redacted before anyone sees it
    const message = redactText(
      forbidden ? `the bot's remediation role may not do this: ${error.message}` : errorMessage(error),
    );
    await refused(deps, rec, approver, code, message);
    return { ok: false, state: 'failed' };
  }
  if (key(changes) !== key(p.plan.changes)) {
    await replanProposal(
      deps,
      rec,
      ['approved'],
      'isvc-doctor',
      `the API server's dry run of ${object} changes other fields than the proposal showed`,
      approver,
    );
    return { ok: false, state: 'superseded' };
  }
  return { ok: true };
}

async function refused(
  deps: RemediationDeps,
  rec: ProposalRecord,
  approver: string,
  code: string,
  message: string,
): Promise<void> {
  const p = rec.proposal;
  const moved = await deps.store.transition(p.id, ['approved'], 'failed', approver, deps.now());
  if (!moved.ok) return;
  const quiet = (e: unknown) => deps.warn(`remediation: ${errorMessage(e)}`);
  await deps.audit.append({
    event: 'failed',
    proposalId: p.id,
    action: p.action,
    object: describeRef(p.plan.target),
    actor: approver,
    patch: JSON.stringify(p.plan.write),
    outcome: `dry run refused: ${code}`,
  });
  await deps
    .notify({ kind: 'remediation-failed', proposal: p, by: approver, code, dryRunRefused: message })
    .catch(quiet);
  const ts = rec.messageTs ?? (await deps.store.get(p.id))?.messageTs;
  if (ts)
    await deps
      .notify({
        kind: 'proposal-decided',
        proposal: p,
        messageTs: ts,
        state: 'failed',
        by: approver,
        note: `the API server refused the change in a dry run (${code}); nothing was changed`,
      })
      .catch(quiet);
}
