/**
 * `remediate`: apply an approved remediation proposal (remediation/apply-proposal). The job id is
 * the proposal id, so adding it twice (a second click, a click handled again) is one job; it is
 * retried with backoff and kept for a month.
 */
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { applyProposal, type RemediateResult } from '../../remediation/apply-proposal.js';
import type { RemediationDeps } from '../../remediation/remediation-deps.js';
import { requestIdSchema } from '../job-data.js';
import { jobKind } from './job-kind.js';

export const remediateJobSchema = z.object({
  kind: z.literal('remediate'),
  proposalId: z.string().regex(/^rp-[A-Za-z0-9_-]{16}$/, 'not a proposal id'),
  approver: z.string().min(1),
  messageTs: z.string().max(32).optional(),
  requestId: requestIdSchema,
});
export type RemediateJobData = z.infer<typeof remediateJobSchema>;

export interface RemediateDeps {
  /** The remediation flow; absent where this worker may not write (the job then fails, unretried). */
  remediation?: RemediationDeps;
  /** After each apply job: the proposal's action and the state it ended in ("error" when it threw). */
  onRemediation?(action: string, state: string): void;
}

const MONTH_S = 30 * 24 * 3600;

export const remediateJob = jobKind({
  kind: 'remediate',
  summary: 'apply an approved remediation proposal, record it and verify',
  addedBy: 'an Approve click (remediation/decide-proposal)',
  schema: remediateJobSchema,
  options: (data) => ({
    jobId: data.proposalId,
    attempts: 5,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: MONTH_S },
    removeOnFail: { age: MONTH_S },
  }),
  async process(data, _job, deps: RemediateDeps, signal): Promise<RemediateResult> {
    const remediation = deps.remediation;
    if (!remediation) throw new UnrecoverableError('REMEDIATION_DISABLED: this worker cannot apply remediations');
    const action = async () =>
      (await remediation.store.get(data.proposalId).catch(() => null))?.proposal.action ?? 'unknown';
    try {
      const result = await applyProposal(remediation, data, signal);
      deps.onRemediation?.(await action(), result.state);
      return result;
    } catch (error) {
      deps.onRemediation?.(await action(), 'error');
      throw error;
    }
  },
});
