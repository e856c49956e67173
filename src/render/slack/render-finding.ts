/**
 * One finding of the details replies as a group of blocks: a heading that names its code and
 * severity in words (the severity emoji is on the verdict only), a section of evidence bullets,
 * log excerpts in code blocks, and a fix to make by hand (a fix the bot can apply comes as a
 * proposal with buttons, so its text is not repeated here).
 */
import type { Evidence, Finding, Remediation } from '../../findings/types.js';
import type { Block } from '../../slack/slack-message.js';
import { section } from './block-kit.js';
import { cut, escapeCode, escapeMrkdwn, SLACK_LIMITS } from './limits.js';
import { evidenceLine, logBlock, shortRef } from './render-evidence.js';

export interface FindingRenderOptions {
  /** At most this many log excerpts (the rest are mentioned). */
  maxLogs: number;
  /** Characters for each log section. */
  logBudget: number;
  /** Characters for all the finding's blocks together. */
  charBudget: number;
}

export function findingHeading(f: Finding): string {
  const about = [
    shortRef(f.subject),
    f.component,
    f.revision && !f.subject.endsWith(f.revision) ? `revision ${f.revision}` : undefined,
  ]
    .filter(Boolean)
    .map((s) => escapeMrkdwn(cut(s!, 160)));
  return `*\`${f.code}\`* (${f.severity}) ${escapeMrkdwn(cut(f.title, 300))}${about.length > 0 ? `\n_${about.join(' · ')}_` : ''}`;
}

/** Lines joined into one section text of at most `max` characters; lines that do not fit are counted. */
export function bulletSection(lines: string[], max: number = SLACK_LIMITS.sectionText): string {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const reserve = i < lines.length - 1 ? 60 : 0;
    if (used + line.length + 1 + reserve > max) {
      out.push(
        `_… ${lines.length - i} more line${lines.length - i === 1 ? '' : 's'} of evidence left out to fit Slack_`,
      );
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join('\n');
}

/** A fix to make by hand: its summary and the YAML or command, in a code block. */
export function manualFixText(r: Remediation): string {
  const parts = [
    `🛠️ *Fix by hand:* ${escapeMrkdwn(cut(r.summary, 400))}${r.target ? ` — ${escapeMrkdwn(cut(r.target, 160))}` : ''}`,
  ];
  const body = r.diff && r.diff.length > 0 ? r.diff : r.manual ? r.manual.split('\n') : [];
  if (body.length > 0) {
    const lines = body.slice(0, 40).map((l) => escapeCode(cut(l, 200)));
    if (body.length > 40) lines.push(`… ${body.length - 40} more lines`);
    parts.push(`\`\`\`\n${lines.join('\n')}\n\`\`\``);
  }
  return cut(parts.join('\n'), SLACK_LIMITS.sectionText);
}

/** A remediation the bot proposes itself (a proposal message with Approve / Reject follows). */
export const isProposed = (r: Remediation | null): boolean =>
  Boolean(r?.needsApproval && !r.manual && r.action !== 'manual');

/** The blocks of evidence (bullets, then log excerpts within budget), without a heading. */
export function evidenceBlocks(f: Finding, evidence: Evidence[], options: FindingRenderOptions, used = 0): Block[] {
  const logs = evidence.filter((e) => e.kind === 'log');
  const lines = evidence.filter((e) => e.kind !== 'log').map((e) => evidenceLine(e, f.subject));
  const shownLogs = logs.slice(0, options.maxLogs);
  if (logs.length > shownLogs.length) lines.push(`_… ${logs.length - shownLogs.length} more log excerpt(s) not shown_`);
  const blocks: Block[] = [];
  if (lines.length > 0) blocks.push(section(bulletSection(lines)));
  const spent = used + blocks.reduce((n, b) => n + (b.type === 'section' ? b.text.text.length : 0), 0);
  const perLog =
    shownLogs.length > 0
      ? Math.min(
          options.logBudget,
          SLACK_LIMITS.sectionText,
          Math.floor((options.charBudget - spent) / shownLogs.length),
        )
      : 0;
  for (const log of shownLogs)
    blocks.push(
      section(
        perLog >= 400
          ? logBlock(log, perLog, { subject: f.subject })
          : `_Log excerpt of ${escapeMrkdwn(log.ref)} left out to fit Slack_`,
      ),
    );
  return blocks;
}

export function renderFinding(f: Finding, options: FindingRenderOptions): Block[] {
  const heading = findingHeading(f);
  const blocks: Block[] = [
    section(cut(heading, SLACK_LIMITS.sectionText)),
    ...evidenceBlocks(f, f.evidence, options, heading.length),
  ];
  if (f.remediation && !isProposed(f.remediation)) blocks.push(section(manualFixText(f.remediation)));
  return blocks;
}
