/**
 * A Report as the thread replies of a diagnosis: the first message is the root cause (its evidence
 * and log excerpt), the next ones the other findings (consequences marked), the request-flow hops,
 * the traffic split and the metrics / trace links. Messages are packed within Slack's limits
 * (≤50 blocks, ≤3000 characters a section, ~12k characters a message); every message's `text`
 * names the codes of the findings it reports. Pure: same report in, same blocks out.
 */
import type { FindingCode } from '../../findings/catalog.js';
import type { Finding, Report } from '../../findings/types.js';
import type { Block, SlackMessage } from '../../slack/slack-message.js';
import { blockChars, context, section } from './block-kit.js';
import { cut, escapeMrkdwn, SLACK_LIMITS } from './limits.js';
import { renderFinding } from './render-finding.js';

/** At most this many thread replies for one report; what is left is listed by code in the last one. */
export const MAX_REPORT_MESSAGES = 8;
const MESSAGE_BUDGET = SLACK_LIMITS.messageChars - 1000; // room for the fallback text
const SECTIONS: Array<{ title: string; codes: FindingCode[] | null }> = [
  { title: 'Request flow', codes: ['REQUEST_FLOW'] },
  { title: 'Traffic split', codes: ['TRAFFIC_SPLIT'] },
  { title: 'Metrics and traces', codes: ['TRACING_LINKS'] },
];

interface Unit {
  code: FindingCode;
  blocks: Block[];
}

export function targetName(report: Pick<Report, 'target'>): string {
  return `${report.target.namespace}/${report.target.name}`;
}

function unitsOf(findings: Finding[], title: string): Unit[] {
  return findings.map((f, i) => {
    const blocks = renderFinding(f, { root: false, maxLogs: 1, logBudget: 1500, charBudget: MESSAGE_BUDGET - 200 });
    return { code: f.code, blocks: i === 0 ? [context(`*${title}*`), ...blocks] : blocks };
  });
}

function fallbackText(prefix: string, codes: FindingCode[]): string {
  return cut(`${prefix}: ${[...new Set(codes)].join(', ')}`, SLACK_LIMITS.fallbackText);
}

/** Greedy packing of units into messages within the block and character budgets. */
function pack(units: Unit[], name: string): Array<{ units: Unit[]; message: SlackMessage }> {
  const out: Array<{ units: Unit[]; message: SlackMessage }> = [];
  let current: Unit[] = [];
  let blocks = 0;
  let chars = 0;
  const flush = () => {
    if (current.length === 0) return;
    const codes = current.map((u) => u.code);
    out.push({ units: current, message: { text: fallbackText(`More findings for ${name}`, codes), blocks: current.flatMap((u) => u.blocks) } });
    current = [];
    blocks = 0;
    chars = 0;
  };
  for (const unit of units) {
    const size = unit.blocks.reduce((n, b) => n + blockChars(b), 0);
    if (blocks + unit.blocks.length > SLACK_LIMITS.blocksPerMessage || chars + size > MESSAGE_BUDGET) flush();
    current.push(unit);
    blocks += unit.blocks.length;
    chars += size;
  }
  flush();
  return out;
}

/** The last message when there are too many: the codes of what is left, and how to see it all. */
function summaryMessage(units: Unit[], report: Report): SlackMessage {
  const codes = units.map((u) => u.code);
  const listed = cut([...new Set(codes)].map((c) => `\`${c}\``).join(', '), SLACK_LIMITS.sectionText - 300);
  const cli = `isvc-doctor diagnose ${report.target.name} -n ${report.target.namespace} -o json`;
  return {
    text: fallbackText(`More findings for ${targetName(report)}`, codes),
    blocks: [section(`_… and ${codes.length} more finding${codes.length === 1 ? '' : 's'} not shown to keep the thread readable:_ ${listed}\nRun \`${escapeMrkdwn(cli)}\` for all of them.`)],
  };
}

function firstMessage(report: Report): SlackMessage {
  const name = targetName(report);
  const first = report.findings[0];
  const stats = `_${report.stats.durationMs} ms · ${report.stats.apiRequests} Kubernetes API requests · ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}_`;
  if (!first) return { text: `No findings for ${name}`, blocks: [section(`No findings for *${escapeMrkdwn(name)}*.`), context(stats)] };
  const root = report.rootCause !== null && first.code === report.rootCause;
  const blocks = renderFinding(first, { root, maxLogs: 3, logBudget: 2900, charBudget: MESSAGE_BUDGET - 300 });
  blocks.push(context(stats));
  const text = root ? `Root cause for ${name}: ${first.code} — ${first.title}` : `${name}: ${first.code} — ${first.title}`;
  return { text: cut(text, SLACK_LIMITS.fallbackText), blocks };
}

/** The thread replies for a report, root cause first. */
export function renderReportMessages(report: Report): SlackMessage[] {
  const rest = report.findings.slice(1);
  const special = new Set(SECTIONS.flatMap((s) => s.codes ?? []));
  const units: Unit[] = [
    ...unitsOf(rest.filter((f) => !special.has(f.code)), 'Other findings'),
    ...SECTIONS.flatMap((s) => unitsOf(rest.filter((f) => s.codes?.includes(f.code)), s.title)),
  ];
  const packed = pack(units, targetName(report));
  if (packed.length < MAX_REPORT_MESSAGES) return [firstMessage(report), ...packed.map((p) => p.message)];
  const shown = packed.slice(0, MAX_REPORT_MESSAGES - 2);
  const left = packed.slice(MAX_REPORT_MESSAGES - 2).flatMap((p) => p.units);
  return [firstMessage(report), ...shown.map((p) => p.message), summaryMessage(left, report)];
}
