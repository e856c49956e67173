/**
 * Slack messages of an incident, pure: the root message (one service or a group, open or
 * recovered), and the thread notes (joined, recovered, root cause changed, resolved). The diagnosis
 * itself is rendered by `renderReportMessages`, exactly as for `/isvc diagnose`. Every message's
 * text names the root-cause code; long member lists are cut with "+N more".
 */
import { humanDuration } from '../../core/duration.js';
import { outageMs, type Incident, type Member } from '../../incidents/incident-model.js';
import type { SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { cut, escapeMrkdwn } from './limits.js';

const LIST_IN_ROOT = 15;
const LIST_IN_NOTE = 40;

function names(members: Member[], max: number): string {
  const shown = members.slice(0, max).map((m) => `${m.namespace}/${m.name}`);
  const more = members.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The root message, posted once in the alerts channel and updated in place. */
export function renderIncidentRoot(incident: Incident, members: Member[], now: number): SlackMessage {
  const cause = members.length === 1 ? members[0]!.rootCause : incident.rootCause;
  const lasted = humanDuration(outageMs(members, now));
  if (incident.status === 'resolved') {
    const subject = members.length === 1 ? `${members[0]!.namespace}/${members[0]!.name}` : plural(members.length, 'InferenceService');
    const text = `✅ ${subject} recovered after ${lasted} (was ${cause})`;
    return { text, blocks: [section(cut(`✅ *${escapeMrkdwn(subject)}* recovered after ${lasted} (was \`${cause}\`)`, 3000)), ...(members.length > 1 ? [context(cut(escapeMrkdwn(names(members, LIST_IN_ROOT)), 2000))] : [])] };
  }
  const open = members.filter((m) => m.recoveredAt === null);
  if (members.length === 1) {
    const m = members[0]!;
    const text = `🔴 ${m.namespace}/${m.name} has not been ready for ${lasted}: ${cause}`;
    return { text, blocks: [section(`🔴 *${escapeMrkdwn(`${m.namespace}/${m.name}`)}* has not been ready for ${lasted}: *\`${cause}\`*`), context('_Automatic incident · the diagnosis is in the thread · `/isvc mute NAME` to silence_')] };
  }
  const text = `🔴 ${plural(open.length, 'InferenceService')} not ready: ${incident.rootCause} — ${names(open, LIST_IN_ROOT)}`;
  const recovered = members.length - open.length;
  return {
    text: cut(text, 3000),
    blocks: [
      section(`🔴 *${plural(open.length, 'InferenceService')} not ready* with the same root cause *\`${incident.rootCause}\`*`),
      section(cut(escapeMrkdwn(names(open, LIST_IN_ROOT)), 3000)),
      context(`_Grouped automatic incident · ${recovered > 0 ? `${recovered} recovered · ` : ''}first unready ${lasted} ago · details in the thread_`),
    ],
  };
}

export function renderJoinedNote(joined: Member[], rootCause: string): SlackMessage {
  const text = `Also not ready with the same root cause (${rootCause}): ${names(joined, LIST_IN_NOTE)}`;
  return { text: cut(text, 3000), blocks: [section(cut(`➕ Also not ready with the same root cause \`${rootCause}\`: ${escapeMrkdwn(names(joined, LIST_IN_NOTE))}`, 3000))] };
}

export function renderRecoveredNote(recovered: Member[]): SlackMessage {
  const lines = recovered.slice(0, LIST_IN_NOTE).map((m) => `${m.namespace}/${m.name} ${m.recoveredBy === 'deleted' ? 'was deleted' : 'is Ready again'} (recovered after ${humanDuration(Math.max(0, m.recoveredAt! - m.unreadySince))})`);
  const more = recovered.length - lines.length;
  const text = `✅ ${lines.join('; ')}${more > 0 ? ` (+${more} more)` : ''}`;
  return { text: cut(text, 3000), blocks: [section(cut(escapeMrkdwn(text), 3000))] };
}

export function renderRootCauseChanged(member: Member, from: string, to: string): SlackMessage {
  const text = `🔄 Root cause of ${member.namespace}/${member.name} changed: ${from} → ${to}`;
  return { text, blocks: [section(`🔄 Root cause of *${escapeMrkdwn(`${member.namespace}/${member.name}`)}* changed: \`${from}\` → *\`${to}\`*`)] };
}

export function renderResolvedNote(members: Member[], now: number): SlackMessage {
  const text = `✅ Incident resolved: ${members.length === 1 ? 'the InferenceService is' : `all ${members.length} InferenceServices are`} Ready again, after ${humanDuration(outageMs(members, now))}.`;
  return { text, blocks: [section(text)] };
}
