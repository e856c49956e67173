/**
 * After a diagnosis: for each finding whose remediation the bot can apply (root cause first, one
 * per action, at most three), plan it against the live object and offer the proposal in each
 * thread that asked. A fix that cannot be planned (already at the cap, nothing to change, the
 * remediation role denied) is told with its code instead of buttons.
 */
import { RemediationError } from '../changes/remediation-error.js';
import { errorCode, errorMessage } from '../core/error-message.js';
import { answeredReadsOf } from '../diagnosis/run-diagnosis.js';
import type { Finding, Report } from '../findings/types.js';
import { actionById } from './actions/index.js';
import { planProposal } from './plan-proposal.js';
import { postProposal } from './post-proposal.js';
import type { Proposal } from './proposal.js';
import type { RemediationDeps } from './remediation-deps.js';

export interface OfferThread {
  channel: string;
  threadTs: string;
  user: string;
  /** The message showing the verdict the fix is for (updated once the fix is verified). */
  verdictTs?: string;
}

const MAX_OFFERS = 3;

export function offerable(report: Report): Finding[] {
  const seen = new Set<string>();
  return report.findings
    .filter((f) => f.remediation?.needsApproval && !f.remediation.manual && actionById(f.remediation.action))
    .filter((f) => {
      const action = f.remediation?.action;
      if (action === undefined || seen.has(action)) return false;
      seen.add(action);
      return true;
    })
    .slice(0, MAX_OFFERS);
}

export async function offerRemediations(
  deps: RemediationDeps,
  report: Report,
  threads: OfferThread[],
): Promise<number> {
  let posted = 0;
  // what the diagnosis read moments ago: no second lookup of the InferenceService, no second pod list
  const seen = answeredReadsOf(report);
  for (const finding of offerable(report)) {
    for (const t of threads) {
      const r = finding.remediation!;
      let p: Proposal;
      try {
        p = await planProposal(deps, {
          action: r.action,
          params: r.params ?? {},
          target: { namespace: report.target.namespace, name: report.target.name },
          findingCode: finding.code,
          requester: t.user,
          channel: t.channel,
          threadTs: t.threadTs,
          ...(t.verdictTs ? { verdictTs: t.verdictTs } : {}),
          ...(seen ? { seen } : {}),
        });
      } catch (error) {
        const code = errorCode(error);
        const message = error instanceof RemediationError ? error.message : 'the plan could not be computed';
        deps.warn(
          `remediation ${r.action} for ${report.target.namespace}/${report.target.name}: ${code}: ${errorMessage(error)}`,
        );
        await deps
          .notify({
            kind: 'offer-not-planned',
            thread: { channel: t.channel, threadTs: t.threadTs },
            findingCode: finding.code,
            code,
            message,
          })
          .catch(() => undefined);
        continue;
      }
      try {
        await postProposal(deps, p);
        posted += 1;
      } catch (error) {
        // planned fine, but Slack refused the offer: say so in the log; never blame "the plan" in the thread
        deps.warn(
          `remediation ${r.action} for ${report.target.namespace}/${report.target.name}: planned, but the offer could not be posted to Slack: ${errorCode(error)}: ${errorMessage(error)}`,
        );
      }
    }
  }
  return posted;
}
