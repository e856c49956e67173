/** The remediation flow's events on Slack: proposals with their buttons, decisions, refusals, outcomes, rollout notes. */
import type { Notify } from '../core/notify.js';
import type { RemediationEvent } from '../remediation/remediation-events.js';
import {
  renderApplyOutcome,
  renderDryRunRefused,
  renderOfferNotPlanned,
  renderProposal,
  renderProposalDecided,
  renderRefusal,
  renderReplanFailed,
  renderVerification,
} from '../render/slack/render-proposal.js';
import { renderRolloutOpNotOffered, renderRolloutStarted, renderRolloutView, renderRolloutUnreadable, renderTrafficSplit } from '../render/slack/render-rollout.js';
import type { SlackPoster } from '../slack/slack-poster.js';
import { notifierOf } from './notifier.js';

export function slackRemediationNotifier(poster: SlackPoster): Notify<RemediationEvent> {
  return notifierOf<RemediationEvent>({
    'proposal-offered': ({ proposal: p, now }) => poster.post(p.channel, renderProposal(p, now), p.threadTs),
    'proposal-decided': async ({ proposal: p, messageTs, state, by, note }) => (await poster.update(p.channel, messageTs, renderProposalDecided(p, state, by, note)), null),
    'click-refused': async (e) => (await poster.ephemeral(e.channel, e.user, renderRefusal(e.code, e.message), e.threadTs), null),
    'remediation-applied': ({ proposal: p, by }) => poster.post(p.channel, renderApplyOutcome(p, by, 'applied', p.plan.summary), p.threadTs),
    'remediation-failed': ({ proposal: p, by, code, dryRunRefused }) => poster.post(p.channel, dryRunRefused !== undefined ? renderDryRunRefused(p, by, code, dryRunRefused) : renderApplyOutcome(p, by, 'failed', code), p.threadTs),
    'remediation-verified': ({ proposal: p, outcome, waitedSeconds }) => poster.post(p.channel, renderVerification(p, outcome, waitedSeconds), p.threadTs),
    'offer-not-planned': ({ thread, findingCode, code, message }) => poster.post(thread.channel, renderOfferNotPlanned(findingCode, code, message), thread.threadTs),
    'replan-failed': ({ proposal: p, code, message }) => poster.post(p.channel, renderReplanFailed(p, code, message), p.threadTs),
    'rollout-started': (e) => poster.post(e.channel, renderRolloutStarted(e.target, e.user), e.threadTs),
    'rollout-target-unreadable': ({ thread, target, code }) => poster.post(thread.channel, renderRolloutUnreadable(target, code), thread.threadTs),
    'rollout-split': ({ thread, target, apiVersion, lines }) => poster.post(thread.channel, renderTrafficSplit(target, apiVersion, lines), thread.threadTs),
    'rollout-view': (e) => poster.post(e.channel, renderRolloutView(e.target, e.view, e.user), e.threadTs),
    'rollout-op-not-offered': ({ thread, action, code, message }) => poster.post(thread.channel, renderRolloutOpNotOffered(action, code, message), thread.threadTs),
  });
}
