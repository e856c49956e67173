/**
 * The root message of a diagnosis thread: "Diagnosing ns/name…" while it runs (with what it is
 * doing), and the one-line verdict once the report is in.
 */
import type { TargetRef } from '../../core/target-ref.js';
import type { Report } from '../../findings/types.js';
import type { Progress } from '../../queue/diagnosis-events.js';
import type { SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { cut, escapeMrkdwn } from './limits.js';

const nameOf = (t: TargetRef) => `${t.namespace}/${t.name}`;

export function renderProgress(target: TargetRef, progress: Progress, requestedBy?: string): SlackMessage {
  const name = nameOf(target);
  const text = `Diagnosing ${name}…`;
  const detail =
    progress.phase === 'queued'
      ? 'queued'
      : progress.phase === 'running'
        ? `running the checks${progress.attempt > 1 ? ` (attempt ${progress.attempt})` : ''}`
        : `the Kubernetes API could not be reached (${escapeMrkdwn(cut(progress.reason, 200))}); retrying in ${Math.ceil(progress.delayMs / 1000)} s`;
  const who = requestedBy ? ` · asked by <@${requestedBy}>` : '';
  return { text, blocks: [section(`⏳ *Diagnosing ${escapeMrkdwn(name)}…*`), context(`_${detail}${who}_`)] };
}

/** One line: ready, or not ready and why (the root-cause code always named). */
export function verdictLine(report: Report): string {
  const name = nameOf(report.target);
  const first = report.findings[0];
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  if (report.ready) {
    const warnings = report.findings.filter((f) => f.severity === 'warning').map((f) => f.code);
    return `✅ ${name} is ready${first ? ` (${first.code})` : ''}${warnings.length ? `, with warnings: ${[...new Set(warnings)].join(', ')}` : ''}`;
  }
  if (!first || report.rootCause === null) return `❔ ${name} is not ready, and no check found why (${report.findings.map((f) => f.code).join(', ') || 'no findings'})`;
  const more = errors > 1 ? ` (+${errors - 1} related error${errors - 1 === 1 ? '' : 's'} in the thread)` : '';
  return `❌ ${name} is not ready: ${report.rootCause} — ${cut(first.title, 300)}${more}`;
}

export function renderVerdict(report: Report): SlackMessage {
  const line = verdictLine(report);
  const bold = line.replace(/^(\S+) /, '$1 ');
  const codeMarked = report.rootCause ? escapeMrkdwn(bold).replace(report.rootCause, `*\`${report.rootCause}\`*`) : escapeMrkdwn(bold);
  return { text: cut(line, 3000), blocks: [section(cut(codeMarked, 3000))] };
}
