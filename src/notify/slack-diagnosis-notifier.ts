/**
 * The diagnosis jobs' events on Slack: the root message of a request, its progress, the verdict and
 * the first reply (the deciding evidence), later the details replies, status lists.
 */
import type { Notify } from '../core/notify.js';
import type { Report } from '../findings/types.js';
import type { DiagnosisEvent } from '../queue/diagnosis-events.js';
import type { Subscriber } from '../queue/job-data.js';
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
import { renderCommandFailure } from '../render/slack/render-command-progress.js';
import { renderJobTimedOut } from '../render/slack/render-timeout.js';
import type { SlackPoster } from '../slack/slack-poster.js';
import { notifierOf } from './notifier.js';

export function slackDiagnosisNotifier(poster: SlackPoster): Notify<DiagnosisEvent> {
  /** ISVC_NOT_FOUND (a typo) asked with its own root message, on a poster that can delete it. */
  const onlyTheAsker = (report: Report, s: Subscriber) =>
    report.rootCause === 'ISVC_NOT_FOUND' && s.threadTs === s.rootTs && poster.delete !== undefined;
  return notifierOf<DiagnosisEvent>({
    'diagnosis-queued': (e) =>
      poster.post(e.channel, renderProgress(e.target, { phase: 'queued' }, e.user), e.threadTs),
    'diagnosis-joined': (e) => poster.post(e.channel, renderJoined(e.target, e.user), e.threadTs),
    'diagnosis-queue-unavailable': async (e) => {
      await poster.update(e.channel, e.rootTs, renderQueueUnavailable());
      return null;
    },
    'diagnosis-progress': async ({ subscriber: s, target, progress }) => {
      await poster.update(s.channel, s.rootTs, renderProgress(target, progress, s.user));
      return null;
    },
    'diagnosis-reported': async ({ subscriber: s, report }) => {
      // a name that does not exist concerns only the asker: told ephemerally, with "Diagnose NAME" for the close names
      if (onlyTheAsker(report, s)) {
        await poster.ephemeral(s.channel, s.user, renderVerdict(report));
        return null;
      }
      return poster.post(s.channel, renderFirstReply(report), s.threadTs);
    },
    // after the proposals the first reply leads to (so a fix sits right under its evidence); the
    // root message becomes the verdict last, once the whole answer is in the thread
    'diagnosis-details': async ({ subscriber: s, report }) => {
      if (onlyTheAsker(report, s)) {
        // its public "Diagnosing…" root message goes away; where it cannot, it becomes the verdict
        const deleted = await poster.delete!(s.channel, s.rootTs).then(
          () => true,
          () => false,
        );
        if (!deleted) await poster.update(s.channel, s.rootTs, renderVerdict(report));
        return null;
      }
      try {
        for (const reply of renderDetailReplies(report)) await poster.post(s.channel, reply, s.threadTs);
      } finally {
        // the root message gets its verdict even when a reply could not be posted: never "Diagnosing…" forever
        await poster.update(s.channel, s.rootTs, renderVerdict(report));
        // asked again in a verdict's thread: that root shows the latest verdict too
        if (s.verdictTs && s.verdictTs !== s.rootTs)
          await poster.update(s.channel, s.verdictTs, renderVerdict(report, { rediagnosedBy: s.user }));
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
    'status-listed': (e) =>
      poster.post(
        e.channel,
        renderStatus(e.namespace, e.items, {
          forbidden: e.forbidden === true,
          now: Date.now(),
          ...(e.namespacesRead ? { namespacesRead: e.namespacesRead } : {}),
        }),
        e.threadTs,
      ),
    // only the asker waited for it: told alone, where they asked
    'command-failed': async ({ asker, failure }) => {
      await poster.ephemeral(asker.channel, asker.user, renderCommandFailure(failure), asker.threadTs);
      return null;
    },
  });
}
