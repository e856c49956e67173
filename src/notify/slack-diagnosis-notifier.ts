/**
 * The diagnosis jobs' events on Slack: the root message of a request, its progress, the verdict and
 * the first reply (the deciding evidence), later the details replies, status lists.
 */
import type { Notify } from '../core/notify.js';
import type { DiagnosisEvent } from '../queue/diagnosis-events.js';
import {
  renderClusterUnreachable,
  renderJobFailed,
  renderJoined,
  renderProgress,
  renderQueueUnavailable,
  renderDetailReplies,
  renderFirstReply,
  renderStatus,
  renderVerdict,
} from '../render/slack/index.js';
import { renderJobTimedOut } from '../render/slack/render-timeout.js';
import type { SlackPoster } from '../slack/slack-poster.js';
import { notifierOf } from './notifier.js';

export function slackDiagnosisNotifier(poster: SlackPoster): Notify<DiagnosisEvent> {
  return notifierOf<DiagnosisEvent>({
    'diagnosis-queued': (e) => poster.post(e.channel, renderProgress(e.target, { phase: 'queued' }, e.user), e.threadTs),
    'diagnosis-joined': (e) => poster.post(e.channel, renderJoined(e.target, e.user), e.threadTs),
    'diagnosis-queue-unavailable': async (e) => (await poster.update(e.channel, e.rootTs, renderQueueUnavailable()), null),
    'diagnosis-progress': async ({ subscriber: s, target, progress }) => (await poster.update(s.channel, s.rootTs, renderProgress(target, progress, s.user)), null),
    'diagnosis-reported': ({ subscriber: s, report }) => poster.post(s.channel, renderFirstReply(report), s.threadTs),
    // after the proposals the first reply leads to (so a fix sits right under its evidence); the
    // root message becomes the verdict last, once the whole answer is in the thread
    'diagnosis-details': async ({ subscriber: s, report }) => {
      try {
        for (const reply of renderDetailReplies(report)) await poster.post(s.channel, reply, s.threadTs);
      } finally {
        // the root message gets its verdict even when a reply could not be posted: never "Diagnosing…" forever
        await poster.update(s.channel, s.rootTs, renderVerdict(report));
      }
      return null;
    },
    'diagnosis-failed': async ({ subscriber: s, target, failure }) => {
      const message =
        failure.kind === 'cluster-unreachable'
          ? renderClusterUnreachable(target, failure.reason, failure.attempts)
          : failure.kind === 'timed-out'
            ? renderJobTimedOut(target, failure.seconds)
            : renderJobFailed(target, failure.code);
      await poster.post(s.channel, message, s.threadTs);
      await poster.update(s.channel, s.rootTs, message);
      return null;
    },
    'status-listed': (e) => poster.post(e.channel, renderStatus(e.namespace, e.items, { forbidden: e.forbidden === true, now: Date.now() }), e.threadTs),
  });
}
