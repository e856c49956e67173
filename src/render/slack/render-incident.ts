/**
 * Slack messages of an incident, pure: the root message (one service or a group, open or
 * recovered) says what is wrong like a diagnosis verdict (the root cause in words with its code,
 * the next step, Re-diagnose / Mute 1h and the metrics links), with "unready since" as a Slack date
 * token that stays true; the thread notes (joined, recovered, root cause changed, resolved). The
 * diagnosis itself is rendered by `renderReportMessages`, exactly as for `/isvc diagnose`. Every
 * message's text names the root-cause code, escaped; long member lists are cut with "+N more".
 */
import { humanDuration } from '../../core/duration.js';
import { outageMs, type Incident, type Member } from '../../incidents/incident-model.js';
import type { Block, SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { actions, isWebUrl, muteHourButton, rediagnoseButton, urlButton } from './buttons.js';
import { fitClause } from './fit-text.js';
import { cut, escapeMrkdwn } from './limits.js';
import { agoToken } from './slack-date.js';

const LIST_IN_ROOT = 15;
const LIST_IN_NOTE = 40;

function names(members: Member[], max: number): string {
  const shown = members.slice(0, max).map((m) => `${m.namespace}/${m.name}`);
  const more = members.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const oneLine = (t: string) => t.replace(/\s*\n\s*/g, ' ').trim();

/** The root cause in words (when the opening diagnosis had one) and its code. */
function causeWords(incident: Incident, code: string): string {
  const title =
    incident.headline && code === incident.rootCause ? fitClause(oneLine(incident.headline.title), 200).text : null;
  return title ? `${escapeMrkdwn(title)} · \`${code}\`` : `\`${code}\``;
}

function nextBlock(incident: Incident, code: string): Block[] {
  const next = code === incident.rootCause ? incident.headline?.next : undefined;
  if (!next) return [];
  const shown = fitClause(next, 230);
  return [section(`👉 *Next:* ${escapeMrkdwn(shown.text)}${shown.cut ? ' _(whole in the thread)_' : ''}`)];
}

function linkButtons(incident: Incident) {
  return (incident.headline?.links ?? []).filter((l) => isWebUrl(l.url)).map((l, i) => urlButton(l.label, l.url, i));
}

/** The root message, posted once in the alerts channel and updated in place. */
export function renderIncidentRoot(incident: Incident, members: Member[], now: number): SlackMessage {
  const cause = members.length === 1 ? members[0]!.rootCause : incident.rootCause;
  const lasted = humanDuration(outageMs(members, now));
  if (incident.status === 'resolved') {
    const subject =
      members.length === 1
        ? `${members[0]!.namespace}/${members[0]!.name}`
        : plural(members.length, 'InferenceService');
    const text = escapeMrkdwn(`✅ ${subject} recovered after ${lasted} (was ${cause})`);
    return {
      text,
      blocks: [
        section(cut(`✅ *${escapeMrkdwn(subject)}* recovered after ${lasted} (was \`${cause}\`)`, 3000)),
        ...(members.length > 1 ? [context(cut(escapeMrkdwn(names(members, LIST_IN_ROOT)), 2000))] : []),
      ],
    };
  }
  const open = members.filter((m) => m.recoveredAt === null);
  const since = Math.min(...members.map((m) => m.unreadySince));
  const title = incident.headline && cause === incident.rootCause ? ` — ${oneLine(incident.headline.title)}` : '';
  if (members.length === 1) {
    const m = members[0]!;
    const who = `${m.namespace}/${m.name}`;
    const text = cut(escapeMrkdwn(`🔴 ${who} has not been ready for ${lasted}: ${cause}${title}`), 3000);
    return {
      text,
      blocks: [
        section(
          cut(
            `🔴 *${escapeMrkdwn(who)}* has not been ready since ${agoToken(m.unreadySince, now)}: ${causeWords(incident, cause)}`,
            3000,
          ),
        ),
        ...nextBlock(incident, cause),
        actions(`incident:${incident.id}`, [rediagnoseButton(m), muteHourButton(m), ...linkButtons(incident)]),
        context('_Automatic incident · the diagnosis is in the thread_'),
      ],
    };
  }
  const text = cut(
    escapeMrkdwn(
      `🔴 ${plural(open.length, 'InferenceService')} not ready: ${incident.rootCause}${title} — ${names(open, LIST_IN_ROOT)}`,
    ),
    3000,
  );
  const recovered = members.length - open.length;
  return {
    text,
    blocks: [
      section(
        cut(
          `🔴 *${plural(open.length, 'InferenceService')} not ready* with the same root cause: ${causeWords(incident, incident.rootCause)}`,
          3000,
        ),
      ),
      section(cut(escapeMrkdwn(names(open, LIST_IN_ROOT)), 3000)),
      ...nextBlock(incident, incident.rootCause),
      ...(linkButtons(incident).length ? [actions(`incident:${incident.id}`, linkButtons(incident))] : []),
      context(
        `_Grouped automatic incident · ${recovered > 0 ? `${recovered} recovered · ` : ''}first unready ${agoToken(since, now)} · details in the thread_`,
      ),
    ],
  };
}

export function renderJoinedNote(joined: Member[], rootCause: string): SlackMessage {
  const text = escapeMrkdwn(`Also not ready with the same root cause (${rootCause}): ${names(joined, LIST_IN_NOTE)}`);
  return {
    text: cut(text, 3000),
    blocks: [
      section(
        cut(
          `➕ Also not ready with the same root cause \`${rootCause}\`: ${escapeMrkdwn(names(joined, LIST_IN_NOTE))}`,
          3000,
        ),
      ),
    ],
  };
}

/** Recoveries in the order they happened, one line each (a single one: one sentence). */
export function renderRecoveredNote(recovered: Member[]): SlackMessage {
  const sorted = [...recovered].sort((a, b) => a.recoveredAt! - b.recoveredAt! || a.key.localeCompare(b.key));
  const how = (m: Member) =>
    `${m.recoveredBy === 'deleted' ? 'was deleted' : 'is Ready again'} (recovered after ${humanDuration(Math.max(0, m.recoveredAt! - m.unreadySince))})`;
  const shown = sorted.slice(0, LIST_IN_NOTE);
  const more = sorted.length - shown.length;
  if (sorted.length === 1) {
    const m = sorted[0]!;
    const text = escapeMrkdwn(`✅ ${m.namespace}/${m.name} ${how(m)}`);
    return { text, blocks: [section(text)] };
  }
  const lines = shown.map((m) => `• *${escapeMrkdwn(`${m.namespace}/${m.name}`)}* ${escapeMrkdwn(how(m))}`);
  const text = cut(
    escapeMrkdwn(
      `✅ ${sorted.length} recovered: ${shown.map((m) => `${m.namespace}/${m.name}`).join(', ')}${more > 0 ? ` (+${more} more)` : ''}`,
    ),
    3000,
  );
  return {
    text,
    blocks: [
      section(
        cut(
          `✅ *${sorted.length} recovered*, in the order they did:\n${lines.join('\n')}${more > 0 ? `\n_+${more} more_` : ''}`,
          3000,
        ),
      ),
    ],
  };
}

export function renderRootCauseChanged(member: Member, from: string, to: string): SlackMessage {
  const who = `${member.namespace}/${member.name}`;
  const text = escapeMrkdwn(`🔄 Root cause of ${who} changed: ${from} → ${to}`);
  return { text, blocks: [section(`🔄 Root cause of *${escapeMrkdwn(who)}* changed: \`${from}\` → *\`${to}\`*`)] };
}

export function renderResolvedNote(members: Member[], now: number): SlackMessage {
  const text = `✅ Incident resolved: ${members.length === 1 ? 'the InferenceService is' : `all ${members.length} InferenceServices are`} Ready again, after ${humanDuration(outageMs(members, now))}.`;
  return { text, blocks: [section(text)] };
}
