/**
 * One piece of evidence as mrkdwn: a bullet line for conditions, events, fields, probes, hops and
 * links; a code block with line numbers for log excerpts (cut to a budget, the cut said plainly).
 */
import type { Evidence } from '../../findings/types.js';
import { cut, escapeCode, escapeMrkdwn, link } from './limits.js';

const LINE_MAX = 240;
const HOP_ICON: Record<NonNullable<Evidence['state']>, string> = { ok: '✅', missing: '❌', failing: '⚠️', unknown: '❔' };

/** A one-line bullet for any evidence that is not a log excerpt. */
export function evidenceLine(e: Evidence): string {
  if (e.kind === 'link' && e.url) return `• ${link(e.url, e.text ?? e.ref)}`;
  if (e.kind === 'hop') {
    const icon = HOP_ICON[e.state ?? 'unknown'];
    return `${icon} ${escapeMrkdwn(cut(e.ref, 120))}${e.text ? ` — ${escapeMrkdwn(cut(e.text, LINE_MAX))}` : ''} _(${e.state ?? 'unknown'})_`;
  }
  const label = e.kind === 'condition' || e.kind === 'event' || e.kind === 'probe' || e.kind === 'field' ? `${e.kind}` : 'note';
  const body = e.text ? escapeMrkdwn(cut(e.text, LINE_MAX)) : '';
  return `• _${label}_ ${escapeMrkdwn(cut(e.ref, 120))}${body ? `: ${body}` : ''}`;
}

/** The title line above a log excerpt. */
export function logTitle(e: Evidence): string {
  const where = `${e.container ? `container \`${escapeMrkdwn(e.container)}\`` : 'log'}${e.previous ? ' (previous instance)' : ''}`;
  return `*Log* of ${where} in ${escapeMrkdwn(cut(e.ref, 160))}`;
}

/**
 * A log excerpt as a ``` block with right-aligned line numbers, at most `budget` characters in all.
 * When it does not fit, the last lines are kept (a crash explains itself at the end) and a note says
 * how many were left out.
 */
export function logBlock(e: Evidence, budget: number): string {
  const lines = e.excerpt ?? [];
  if (lines.length === 0) return `${logTitle(e)}\n_(no log lines available)_`;
  const numberAt = (i: number) => e.lineNumbers?.[i] ?? i + 1;
  const width = String(numberAt(lines.length - 1)).length;
  const title = logTitle(e);
  const overhead = title.length + 8 + 120; // fences, newlines, the note
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = `${String(numberAt(i)).padStart(width)} │ ${escapeCode(cut(lines[i]!, LINE_MAX))}`;
    if (used + line.length + 1 > budget - overhead) break;
    kept.unshift(line);
    used += line.length + 1;
  }
  const omitted = lines.length - kept.length;
  const notes: string[] = [];
  if (omitted > 0) notes.push(`${omitted} earlier line${omitted === 1 ? '' : 's'} of the excerpt left out to fit Slack`);
  if (e.truncated) notes.push('the excerpt itself leaves out lines of the log');
  const note = notes.length > 0 ? `\n_(${notes.join('; ')})_` : '';
  return `${title}\n\`\`\`\n${kept.join('\n')}\n\`\`\`${note}`;
}
