/** The incident jobs' events on Slack: the root message in the alerts channel (updated in place) and the notes in its thread. */
import type { Notify } from '../core/notify.js';
import type { IncidentEvent } from '../incidents/incident-events.js';
import { renderReportMessages } from '../render/slack/index.js';
import {
  renderIncidentRoot,
  renderJoinedNote,
  renderRecoveredNote,
  renderResolvedNote,
  renderRootCauseChanged,
} from '../render/slack/render-incident.js';
import type { SlackPoster } from '../slack/slack-poster.js';
import { notifierOf } from './notifier.js';

export function slackIncidentNotifier(poster: SlackPoster): Notify<IncidentEvent> {
  return notifierOf<IncidentEvent>({
    'incident-opened': ({ incident, members, now }) =>
      poster.post(incident.channel, renderIncidentRoot(incident, members, now)),
    'incident-updated': async ({ thread, incident, members, now }) => {
      await poster.update(thread.channel, thread.rootTs, renderIncidentRoot(incident, members, now));
      return null;
    },
    'incident-diagnosis': async ({ thread, report }) => {
      for (const message of renderReportMessages(report)) await poster.post(thread.channel, message, thread.rootTs);
      return null;
    },
    'incident-root-cause-changed': ({ thread, member, from, to }) =>
      poster.post(thread.channel, renderRootCauseChanged(member, from, to), thread.rootTs),
    'incident-joined': ({ thread, joined, rootCause }) =>
      poster.post(thread.channel, renderJoinedNote(joined, rootCause), thread.rootTs),
    'incident-recovered': ({ thread, recovered }) =>
      poster.post(thread.channel, renderRecoveredNote(recovered), thread.rootTs),
    'incident-resolved': ({ thread, members, now }) =>
      poster.post(thread.channel, renderResolvedNote(members, now), thread.rootTs),
  });
}
