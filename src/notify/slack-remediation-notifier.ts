/** The remediation flow's events on Slack: proposals with their buttons, decisions, refusals, outcomes, rollout notes. */
import type { Notify } from '../core/notify.js';
import type { RemediationEvent } from '../remediation/remediation-events.js';
import { renderVerdict } from '../render/slack/render-verdict.js';
import {
  approveLabel,
  renderApplyOutcome,
  renderDryRunRefused,
  renderOfferNotPlanned,
  renderProposal,
  renderProposalDecided,
  renderRefusal,
  renderReplanFailed,
  renderVerification,
} from '../render/slack/render-proposal.js';
import {
  renderRolloutOpNotOffered,
  renderRolloutStarted,
  renderRolloutView,
  renderRolloutUnreadable,
  renderTrafficSplit,
} from '../render/slack/render-rollout.js';
import { renderFixRequested } from '../render/slack/render-fix-requested.js';
import type { SlackPoster } from '../slack/slack-poster.js';
import { notifierOf } from './notifier.js';

export function slackRemediationNotifier(poster: SlackPoster): Notify<RemediationEvent> {
  return notifierOf<RemediationEvent>({
    'proposal-offered': ({ proposal: p, now }) => poster.post(p.channel, renderProposal(p, now), p.threadTs),
    'proposal-decided': async ({ proposal: p, messageTs, state, by, note }) => {
      await poster.update(p.channel, messageTs, renderProposalDecided(p, state, by, note));
      return null;
    },
    'click-refused': async (e) => {
      await poster.ephemeral(e.channel, e.user, renderRefusal(e.code, e.message, e.approvers, e.decidedBy), e.threadTs);
      return null;
    },
    'remediation-applied': ({ proposal: p, by }) =>
      poster.post(p.channel, renderApplyOutcome(p, by, 'applied', p.plan.summary), p.threadTs),
    'remediation-failed': ({ proposal: p, by, code, dryRunRefused }) =>
      poster.post(
        p.channel,
        dryRunRefused !== undefined
          ? renderDryRunRefused(p, by, code, dryRunRefused)
          : renderApplyOutcome(p, by, 'failed', code),
        p.threadTs,
      ),
    'remediation-verified': async ({ proposal: p, outcome, waitedSeconds, by }) => {
      const ts = await poster.post(p.channel, renderVerification(p, outcome, waitedSeconds), p.threadTs);
      // the root message is the verdict: it shows what the change led to, never the stale failure
      if (p.verdictTs && outcome.kind !== 'unknown')
        await poster.update(
          p.channel,
          p.verdictTs,
          renderVerdict(outcome.report, {
            change: {
              by: by ?? p.requester,
              label: approveLabel(p),
              action: p.action,
              fixed: outcome.kind === 'fixed',
              waitedSeconds,
            },
          }),
        );
      return ts;
    },
    'offer-not-planned': ({ thread, findingCode, code, message }) =>
      poster.post(thread.channel, renderOfferNotPlanned(findingCode, code, message), thread.threadTs),
    'replan-failed': ({ proposal: p, code, message }) =>
      poster.post(p.channel, renderReplanFailed(p, code, message), p.threadTs),
    'rollout-started': (e) => poster.post(e.channel, renderRolloutStarted(e.target, e.user), e.threadTs),
    'rollout-target-unreadable': ({ thread, target, code }) =>
      poster.post(thread.channel, renderRolloutUnreadable(target, code), thread.threadTs),
    'rollout-split': ({ thread, target, apiVersion, lines }) =>
      poster.post(thread.channel, renderTrafficSplit(target, apiVersion, lines), thread.threadTs),
    'rollout-view': async (e) => {
      const message = renderRolloutView(e.target, e.view, e.user, e.after);
      if (e.messageTs === undefined) return poster.post(e.channel, message, e.threadTs);
      await poster.update(e.channel, e.messageTs, message);
      return e.messageTs;
    },
    'rollout-op-not-offered': ({ thread, action, code, message }) =>
      poster.post(thread.channel, renderRolloutOpNotOffered(action, code, message), thread.threadTs),
    'fix-requested': (e) => poster.post(e.channel, renderFixRequested(e)),
  });
}
