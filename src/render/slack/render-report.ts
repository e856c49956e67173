/**
 * A Report as the thread replies of a diagnosis. The first reply is the deciding evidence of the
 * root cause, labelled with its source (the exception line and the lines before it, the part of a
 * long line that holds the status code or error), a fix to make by hand, and its consequences
 * folded into one line ("also: CRASH_LOOP, REVISION_MISSING — explained by OOM_KILLED"); it is
 * fitted so that the verdict plus this reply fit one screen (screen-lines.ts). A fix the bot
 * proposes follows it as its own message with buttons. The details replies come after: the rest
 * of the evidence, the other findings, the request flow, the traffic split, the metrics and trace
 * links, and the diagnosis' figures once. Messages keep Slack's limits (≤50 blocks, ≤3000
 * characters a section, ~12k a message); every message's `text` names the codes it reports.
 * Pure: same report in, same blocks out.
 */
import { DETAILS_SECTIONS, type FindingCode } from '../../findings/catalog.js';
import type { Evidence, Finding, Report } from '../../findings/types.js';
import type { Block, SlackMessage } from '../../slack/slack-message.js';
import { blockChars, context, section } from './block-kit.js';
import { keyIndex, namesError } from '../../logs/focus-line.js';
import { cut, escapeMrkdwn, SLACK_LIMITS } from './limits.js';
import { evidenceLine, logBlock, oneLine, shortRef } from './render-evidence.js';
import { evidenceBlocks, findingHeading, isProposed, manualFixText, renderFinding } from './render-finding.js';
import { verdictOf } from '../verdict.js';
import { renderVerdict, verdictShortened } from './render-verdict.js';
import { blockLines, screenLines } from './screen-lines.js';

/** At most this many thread replies for one report; what is left is listed by code in the last one. */
export const MAX_REPORT_MESSAGES = 8;
/** The verdict and the first reply together fit this many lines as Slack shows them (~80 characters wide). */
export const SCREEN_LINES = 15;
const MESSAGE_BUDGET = SLACK_LIMITS.messageChars - 1000; // room for the fallback text
const DETAIL_OPTIONS = { maxLogs: 2, logBudget: 1500, charBudget: MESSAGE_BUDGET - 200 };

interface Unit {
  codes: FindingCode[];
  blocks: Block[];
}

export function targetName(report: Pick<Report, 'target'>): string {
  return `${report.target.namespace}/${report.target.name}`;
}

function fallbackText(prefix: string, codes: FindingCode[]): string {
  return cut(`${escapeMrkdwn(prefix)}: ${[...new Set(codes)].join(', ')}`, SLACK_LIMITS.fallbackText);
}

/** The root cause of the thread: the verdict's finding when it is an error. */
function rootOf(report: Report): Finding | null {
  const f = verdictOf(report).finding;
  return f && f.severity === 'error' ? f : null;
}

const consequencesOf = (report: Report, root: Finding) =>
  report.findings.filter((f) => f !== root && f.consequenceOf === root.code);

const KIND_ORDER: Record<Evidence['kind'], number> = {
  event: 0,
  log: 1,
  field: 2,
  probe: 3,
  condition: 4,
  note: 5,
  hop: 6,
  link: 7,
};
const textsOf = (e: Evidence) => [e.text ?? '', ...(e.excerpt ?? [])];
/** Evidence that holds an error in its own words (a status code, an exception, "denied", …), or a log. */
const telling = (e: Evidence) =>
  (e.kind === 'log' && ((e.excerpt?.length ?? 0) > 1 || (e.excerpt ?? []).some((l) => keyIndex(l) >= 0))) ||
  textsOf(e).some((t) => namesError(t));

/** The root cause's evidence, the deciding pieces first: logs and lines naming the error, then by kind. */
export function rankEvidence(evidence: readonly Evidence[]): Evidence[] {
  return evidence
    .map((e, i) => ({ e, i, bucket: telling(e) ? 0 : 1 }))
    .sort((a, b) => a.bucket - b.bucket || KIND_ORDER[a.e.kind] - KIND_ORDER[b.e.kind] || a.i - b.i)
    .map((x) => x.e);
}

/** The message of a condition or event without its type and reason, to drop repeats of one message. */
const gist = (e: Evidence) =>
  oneLine(e.text ?? '')
    .replace(/^[\w.]+=\w+ \([^)]*\):\s*/, '')
    .replace(/^\w+:\s*(?:\(combined from similar events\):\s*)?/, '')
    .replace(/^Revision "[^"]*" failed with message:\s*/, '')
    .replace(/[.\s]+$/, '');

function repeats(e: Evidence, shown: Evidence[]): boolean {
  if (e.kind === 'log' || !e.text) return false;
  const g = gist(e);
  return (
    g.length >= 30 && shown.some((s) => s.kind !== 'log' && s.text && (gist(s).includes(g) || g.includes(gist(s))))
  );
}

/** How much of one piece of evidence the first reply shows, largest first. */
const LEVELS = [
  { lines: 3, lineMax: 400 },
  { lines: 2, lineMax: 400 },
  { lines: 1, lineMax: 400 },
  { lines: 1, lineMax: 240 },
] as const;

/** One piece of evidence for the first reply: a bullet, or a log's deciding line and the lines before it. */
function firstReplyBlock(e: Evidence, subject: string, level: (typeof LEVELS)[number]): Block {
  if (e.kind === 'log')
    return section(logBlock(e, SLACK_LIMITS.sectionText, { maxLines: level.lines, lineMax: level.lineMax, subject }));
  return section(evidenceLine(e, subject, level.lineMax, 0));
}

function alsoLine(report: Report, root: Finding): string | null {
  const codes = [...new Set(consequencesOf(report, root).map((f) => f.code))];
  if (codes.length === 0) return null;
  const line = `also: ${codes.map((c) => `\`${c}\``).join(', ')} — explained by \`${root.code}\``;
  // right under "Root cause: CODE", a long code need not be spelled again to keep the line to one
  return line.length <= 104 ? line : `also: ${codes.map((c) => `\`${c}\``).join(', ')} — explained by the root cause`;
}

/** The first reply of a root cause: its deciding evidence within the screen budget the verdict leaves. */
function rootReply(report: Report, root: Finding): { message: SlackMessage; shown: Set<Evidence> } {
  // the object once, unless it is a pod (the evidence and the next step name it) or the service itself
  const object = shortRef(root.subject);
  const named = /^(?:Pod|InferenceService) /.test(object) || root.next?.includes(object.split(' ').pop() ?? object);
  const about = [named ? undefined : object, root.component].filter(Boolean).map((s) => escapeMrkdwn(cut(s!, 120)));
  const head: Block[] = [section(`*Root cause: \`${root.code}\`*${about.length ? ` · _${about.join(' · ')}_` : ''}`)];
  const tail: Block[] = [];
  const also = alsoLine(report, root);
  if (also) tail.push(context(also));
  let budget =
    SCREEN_LINES - screenLines(renderVerdict(report)) - [...head, ...tail].reduce((n, b) => n + blockLines(b), 0);
  const shown: Evidence[] = [];
  const body: Block[] = [];
  for (const e of rankEvidence(root.evidence)) {
    if (repeats(e, shown)) continue;
    const fits = LEVELS.map((level) => firstReplyBlock(e, root.subject, level)).find((b) => blockLines(b) <= budget);
    if (!fits && shown.length > 0) continue;
    const block = fits ?? firstReplyBlock(e, root.subject, LEVELS[LEVELS.length - 1]!);
    body.push(block);
    shown.push(e);
    budget -= blockLines(block);
  }
  const alsoCodes = consequencesOf(report, root).map((f) => f.code);
  const text = `Root cause for ${targetName(report)}: ${root.code} — ${oneLine(root.title)}${alsoCodes.length ? ` (also: ${[...new Set(alsoCodes)].join(', ')})` : ''}`;
  return {
    message: { text: cut(escapeMrkdwn(text), SLACK_LIMITS.fallbackText), blocks: [...head, ...body, ...tail] },
    shown: new Set(shown),
  };
}

/** The first reply when nothing is wrong (or only warnings): the first finding, compact. */
function plainReply(report: Report): SlackMessage {
  const first = report.findings[0];
  if (!first)
    return {
      text: `No findings for ${escapeMrkdwn(targetName(report))}`,
      blocks: [section(`No findings for *${escapeMrkdwn(targetName(report))}*.`)],
    };
  const blocks = [
    section(findingHeading(first)),
    ...evidenceBlocks(first, first.evidence, { maxLogs: 1, logBudget: 1500, charBudget: 4000 }),
  ];
  if (first.remediation && !isProposed(first.remediation)) blocks.push(section(manualFixText(first.remediation)));
  return {
    text: cut(
      escapeMrkdwn(`${targetName(report)}: ${first.code} — ${oneLine(first.title)}`),
      SLACK_LIMITS.fallbackText,
    ),
    blocks,
  };
}

/** The first thread reply: the deciding evidence of the root cause (or the first finding). */
export function renderFirstReply(report: Report): SlackMessage {
  const root = rootOf(report);
  return root ? rootReply(report, root).message : plainReply(report);
}

function unitsOf(findings: Finding[], title: string): Unit[] {
  return findings.map((f, i) => {
    const blocks = renderFinding(f, DETAIL_OPTIONS);
    return { codes: [f.code], blocks: i === 0 ? [context(`*${title}*`), ...blocks] : blocks };
  });
}

/** The rest of the root cause's evidence and its fix by hand; its consequences, one line each. */
function rootDetails(report: Report, root: Finding): Unit[] {
  const { shown } = rootReply(report, root);
  const rest = root.evidence.filter((e) => !shown.has(e));
  const units: Unit[] = [];
  const blocks: Block[] = [];
  // what the root message had to shorten, whole
  if (verdictShortened(report))
    blocks.push(
      section(
        cut(
          `*Root cause:* ${escapeMrkdwn(oneLine(root.title))}${root.next ? `\n👉 *Next:* ${escapeMrkdwn(root.next)}` : ''}`,
          SLACK_LIMITS.sectionText,
        ),
      ),
    );
  if (rest.length > 0) blocks.push(...evidenceBlocks(root, rest, DETAIL_OPTIONS));
  if (root.remediation && !isProposed(root.remediation)) blocks.push(section(manualFixText(root.remediation)));
  if (blocks.length > 0)
    units.push({ codes: [root.code], blocks: [context(`*More about \`${root.code}\`*`), ...blocks] });
  const consequences = consequencesOf(report, root);
  if (consequences.length > 0) {
    const lines = consequences.map((f) => `• \`${f.code}\` ${escapeMrkdwn(cut(oneLine(f.title), 200))}`);
    units.push({
      codes: consequences.map((f) => f.code),
      blocks: [context(`*Explained by \`${root.code}\`*`), section(cut(lines.join('\n'), SLACK_LIMITS.sectionText))],
    });
  }
  return units;
}

/** Greedy packing of units into messages within the block and character budgets. */
function pack(units: Unit[], name: string): Array<{ units: Unit[]; message: SlackMessage }> {
  const out: Array<{ units: Unit[]; message: SlackMessage }> = [];
  let current: Unit[] = [];
  let blocks = 0;
  let chars = 0;
  const flush = () => {
    if (current.length === 0) return;
    const codes = current.flatMap((u) => u.codes);
    out.push({
      units: current,
      message: { text: fallbackText(`More findings for ${name}`, codes), blocks: current.flatMap((u) => u.blocks) },
    });
    current = [];
    blocks = 0;
    chars = 0;
  };
  for (const unit of units) {
    const size = unit.blocks.reduce((n, b) => n + blockChars(b), 0);
    if (blocks + unit.blocks.length > SLACK_LIMITS.blocksPerMessage - 1 || chars + size > MESSAGE_BUDGET) flush();
    current.push(unit);
    blocks += unit.blocks.length;
    chars += size;
  }
  flush();
  return out;
}

/** The last message when there are too many: the codes of what is left, and how to see it all. */
function summaryMessage(units: Unit[], report: Report): SlackMessage {
  const codes = units.flatMap((u) => u.codes);
  const listed = cut([...new Set(codes)].map((c) => `\`${c}\``).join(', '), SLACK_LIMITS.sectionText - 300);
  const cli = `isvc-doctor diagnose ${report.target.name} -n ${report.target.namespace} -o json`;
  return {
    text: fallbackText(`More findings for ${targetName(report)}`, codes),
    blocks: [
      section(
        `_… and ${codes.length} more finding${codes.length === 1 ? '' : 's'} not shown to keep the thread readable:_ ${listed}\nRun \`${escapeMrkdwn(cli)}\` for all of them.`,
      ),
    ],
  };
}

function statsLine(report: Report): string {
  return `_${report.stats.durationMs} ms · ${report.stats.apiRequests} Kubernetes API requests · ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}_`;
}

/** The details replies, after the first reply (and after any proposal it leads to). */
export function renderDetailReplies(report: Report): SlackMessage[] {
  const root = rootOf(report);
  const rest = report.findings.filter(
    (f) => f !== (root ?? report.findings[0]) && !(root && f.consequenceOf === root.code),
  );
  const special = new Set<FindingCode>(DETAILS_SECTIONS.flatMap((s) => s.codes));
  const units: Unit[] = [
    ...(root ? rootDetails(report, root) : []),
    ...unitsOf(
      rest.filter((f) => !special.has(f.code)),
      'Other findings',
    ),
    ...DETAILS_SECTIONS.flatMap((s) =>
      unitsOf(
        rest.filter((f) => s.codes.includes(f.code)),
        s.title,
      ),
    ),
  ];
  const packed = pack(units, targetName(report));
  const max = MAX_REPORT_MESSAGES - 1;
  const messages =
    packed.length <= max
      ? packed.map((p) => p.message)
      : [
          ...packed.slice(0, max - 1).map((p) => p.message),
          summaryMessage(
            packed.slice(max - 1).flatMap((p) => p.units),
            report,
          ),
        ];
  if (messages.length === 0)
    return [
      { text: `Diagnosis figures for ${escapeMrkdwn(targetName(report))}`, blocks: [context(statsLine(report))] },
    ];
  messages[messages.length - 1]!.blocks.push(context(statsLine(report)));
  return messages;
}

/** All the thread replies of a report, the first reply first (the incident thread posts them together). */
export function renderReportMessages(report: Report): SlackMessage[] {
  return [renderFirstReply(report), ...renderDetailReplies(report)];
}
