/**
 * `click` (multi-cluster): an Approve / Reject click the web process hands to the agent of the
 * cluster whose store holds the proposal; the agent decides it as if the click came to it (it
 * validates against the live object). A request handled again after a crash adds nothing.
 */
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { approveClick, rejectClick } from '../../remediation/decide-proposal.js';
import type { RemediationDeps } from '../../remediation/remediation-deps.js';
import { requestIdSchema } from '../job-data.js';
import { jobKind } from './job-kind.js';

export const clickJobSchema = z.object({
  kind: z.literal('click'),
  decision: z.enum(['approve', 'reject']),
  click: z.object({
    proposalId: z.string().min(1).max(64),
    user: z.string().min(1),
    channel: z.string(),
    messageTs: z.string().optional(),
    requestId: requestIdSchema,
  }),
  requestId: requestIdSchema,
});
export type ClickJobData = z.infer<typeof clickJobSchema>;

export interface ClickDeps {
  /** A cluster agent's remediation flow; absent on other workers (the job then fails, unretried). */
  forwardedClicks?: RemediationDeps;
}

export const clickJob = jobKind({
  kind: 'click',
  summary: "decide an Approve / Reject click on the proposal's cluster (multi-cluster)",
  addedBy: 'the multi-cluster web process (app/cluster-web)',
  schema: clickJobSchema,
  options: (data) => ({ attempts: 2, ...(data.requestId ? { jobId: `click__${data.requestId}` } : {}) }),
  async process(data, _job, deps: ClickDeps): Promise<{ outcome: 'forwarded'; result: string }> {
    if (!deps.forwardedClicks) throw new UnrecoverableError('FORWARD_UNSUPPORTED: this worker is not a cluster agent');
    const decide = data.decision === 'approve' ? approveClick : rejectClick;
    return { outcome: 'forwarded', result: (await decide(deps.forwardedClicks, data.click)).kind };
  },
});
