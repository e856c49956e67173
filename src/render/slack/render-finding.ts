/**
 * One finding as a group of blocks: a heading section that names its code (and, for a consequence,
 * the code that explains it), a section of evidence bullets, log excerpts in code blocks, and the
 * remediation it offers (as text; a proposal with buttons follows in its own message).
 */
import type { Evidence, Finding, Remediation } from '../../findings/types.js';
import type { Block } from '../../slack/slack-message.js';
import { section } from './block-kit.js';
import { cut, escapeCode, escapeMrkdwn, SLACK_LIMITS } from './limits.js';
import { evidenceLine, logBlock } from './render-evidence.js';

const SEVERITY_ICON = { error: '🔴', warning: '🟠', info: 'ℹ️' } as const;

export interface FindingRenderOptions {
  /** The report's root cause: a bigger budget for its logs, and "Root cause" in the heading. */
  root: boolean;
  /** At most this many log excerpts (the rest are mentioned). */
  maxLogs: number;
  /** Characters for each log section. */
  logBudget: number;
  /** Characters for all the finding's blocks together. */
  charBudget: number;
}

export function findingHeading(f: Finding, root: boolean): string {
  const parts = [
    root ? `${SEVERITY_ICON[f.severity]} *Root cause: \`${f.code}\`* — ${escapeMrkdwn(cut(f.title, 300))}` : `${SEVERITY_ICON[f.severity]} *\`${f.code}\`* (${f.severity}) ${escapeMrkdwn(cut(f.title, 300))}`,
  ];
  const about = [f.subject, f.component, f.revision ? `revision ${f.revision}` : undefined].filter(Boolean).map((s) => escapeMrkdwn(cut(s!, 160)));
  if (about.length > 0) parts.push(`_${about.join(' · ')}_`);
  if (f.consequenceOf) parts.push(`↳ _consequence of \`${f.consequenceOf}\`_`);
  return parts.join('\n');
}

/** Lines joined into one section text of at most `max` characters; lines that do not fit are counted. */
export function bulletSection(lines: string[], max: number = SLACK_LIMITS.sectionText): string {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const reserve = i < lines.length - 1 ? 60 : 0;
    if (used + line.length + 1 + reserve > max) {
      out.push(`_… ${lines.length - i} more line${lines.length - i === 1 ? '' : 's'} of evidence left out to fit Slack_`);
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join('\n');
}

export function remediationText(r: Remediation): string {
  const parts = [`🛠️ *Fix${r.needsApproval ? ' (needs approval)' : ''}:* ${escapeMrkdwn(cut(r.summary, 400))}${r.target ? ` — ${escapeMrkdwn(cut(r.target, 160))}` : ''}`];
  const body = r.diff && r.diff.length > 0 ? r.diff : r.manual ? r.manual.split('\n') : [];
  if (body.length > 0) {
    const lines = body.slice(0, 40).map((l) => escapeCode(cut(l, 200)));
    if (body.length > 40) lines.push(`… ${body.length - 40} more lines`);
    parts.push(`\`\`\`\n${lines.join('\n')}\n\`\`\``);
  }
  return cut(parts.join('\n'), SLACK_LIMITS.sectionText);
}

export function renderFinding(f: Finding, options: FindingRenderOptions): Block[] {
  const logs = f.evidence.filter((e) => e.kind === 'log');
  const others = f.evidence.filter((e) => e.kind !== 'log');
  const blocks: Block[] = [];
  const lines = others.map((e: Evidence) => evidenceLine(e));
  const shownLogs = logs.slice(0, options.maxLogs);
  if (logs.length > shownLogs.length) lines.push(`_… ${logs.length - shownLogs.length} more log excerpt(s) not shown_`);
  const heading = findingHeading(f, options.root);
  const combined = lines.length > 0 ? `${heading}\n${lines.join('\n')}` : heading;
  if (combined.length <= SLACK_LIMITS.sectionText) blocks.push(section(combined));
  else {
    blocks.push(section(cut(heading, SLACK_LIMITS.sectionText)));
    blocks.push(section(bulletSection(lines)));
  }
  // the root cause's next step: the field to edit or the command to run, with this service's names
  if (options.root && f.severity === 'error' && f.next) blocks.push(section(`👉 *Next:* ${escapeMrkdwn(cut(f.next, 600))}`));
  const fix = f.remediation ? section(remediationText(f.remediation)) : null;
  const used = blocks.reduce((n, b) => n + (b.type === 'section' ? b.text.text.length : 0), 0) + (fix ? fix.text.text.length : 0);
  const perLog = shownLogs.length > 0 ? Math.min(options.logBudget, SLACK_LIMITS.sectionText, Math.floor((options.charBudget - used) / shownLogs.length)) : 0;
  for (const log of shownLogs) {
    blocks.push(section(perLog >= 400 ? logBlock(log, perLog) : `_Log excerpt of ${escapeMrkdwn(log.ref)} left out to fit Slack_`));
  }
  if (fix) blocks.push(fix);
  return blocks;
}
