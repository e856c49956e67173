/**
 * The root message of a diagnosis thread: "Diagnosing ns/name…" while it runs (with what it is
 * doing), then the verdict: one honest sentence (never ✅ while an error finding exists: a Ready
 * service with one is "Ready, but unreachable" / "Ready, but failing"), the root cause in words
 * with its code, the next step, and the buttons people look for (Re-diagnose, the configured
 * Grafana / Jaeger / Kiali links). The severity emoji is on this message only.
 */
import type { TargetRef } from '../../core/target-ref.js';
import { notFoundAlternatives } from '../../findings/not-found-alternatives.js';
import type { Report } from '../../findings/types.js';
import type { Progress } from '../../queue/diagnosis-events.js';
import type { Block, SlackMessage } from '../../slack/slack-message.js';
import { type Verdict, verdictOf } from '../verdict.js';
import { context, section } from './block-kit.js';
import { REDIAGNOSE_ACTION } from '../../slack/action-ids.js';
import { actions, button, isWebUrl, rediagnoseButton, urlButton, type Button } from './buttons.js';
import { fitClause } from './fit-text.js';
import { cut, escapeMrkdwn, SLACK_LIMITS } from './limits.js';
import { oneLine } from './render-evidence.js';

const nameOf = (t: TargetRef) => `${t.namespace}/${t.name}`;

export function renderProgress(target: TargetRef, progress: Progress, requestedBy?: string): SlackMessage {
  const name = escapeMrkdwn(nameOf(target));
  const text = `Diagnosing ${name}…`;
  const detail =
    progress.phase === 'queued'
      ? 'queued'
      : progress.phase === 'running'
        ? `running the checks${progress.attempt > 1 ? ` (attempt ${progress.attempt})` : ''}`
        : `the Kubernetes API could not be reached (${escapeMrkdwn(cut(progress.reason, 200))}); retrying in ${Math.ceil(progress.delayMs / 1000)} s`;
  const who = requestedBy ? ` · asked by <@${requestedBy}>` : '';
  return { text, blocks: [section(`⏳ *Diagnosing ${name}…*`), context(`_${detail}${who}_`)] };
}

/** The sentence as plain text (the notification and the CLI-like summary). */
export function verdictLine(report: Report): string {
  const v = verdictOf(report);
  const name = nameOf(report.target);
  const f = v.finding;
  if (v.kind === 'ready') return `✅ ${name} is ready${f ? ` (${f.code})` : ''}`;
  if (v.kind === 'ready-with-warnings')
    return `✅ ${name} is ready, with warnings: ${[...new Set(report.findings.filter((x) => x.severity === 'warning').map((x) => x.code))].join(', ')}`;
  if (v.kind === 'unexplained')
    return `❔ ${name} ${v.phrase} (${report.findings.map((x) => x.code).join(', ') || 'no findings'})`;
  return `${v.icon} ${name} ${v.phrase}: ${f!.code} — ${cut(f!.title, 300)}`;
}

/** The configured metrics and trace links of a report (TRACING_LINKS), as URL buttons. */
export function linkButtons(report: Report): Button[] {
  const links = report.findings
    .filter((f) => f.code === 'TRACING_LINKS')
    .flatMap((f) => f.evidence.filter((e) => e.kind === 'link' && e.url && isWebUrl(e.url)));
  return links.slice(0, 4).map((e, i) => urlButton(e.text ?? e.ref, e.url!, i));
}

/** A URL or host a person can use; not a placeholder the status carries ("none", "<none>", ""). */
const isAddress = (url: string): boolean => /^[a-z][a-z0-9+.-]*:\/\/\S+$|^[\w.-]+\.[a-z]{2,}\S*$/i.test(url.trim());

function sentence(report: Report, v: Verdict): string {
  const name = `*${escapeMrkdwn(nameOf(report.target))}*`;
  const f = v.finding;
  if (v.kind === 'ready') {
    const url = report.findings
      .find((x) => x.code === 'ISVC_READY')
      ?.evidence.find((e) => e.text?.startsWith('url: '))
      ?.text?.slice(5);
    return `✅ ${name} is ready${url && isAddress(url) ? ` at ${escapeMrkdwn(cut(url, 200))}` : ''}.`;
  }
  if (v.kind === 'ready-with-warnings') {
    const codes = [
      ...new Set(report.findings.filter((x) => x.severity === 'warning').map((x) => `\`${x.code}\``)),
    ].join(', ');
    return `✅ ${name} is ready, with warnings: ${codes}`;
  }
  if (v.kind === 'unexplained')
    return `❔ ${name} is not ready, and no check found why (${report.findings.map((x) => `\`${x.code}\``).join(', ') || 'no findings'}).`;
  const title = fitClause(
    oneLine(f!.title),
    Math.max(80, SENTENCE_CHARS - nameOf(report.target).length - v.phrase.length - f!.code.length),
  );
  return `${v.icon} ${name} ${v.phrase}: ${escapeMrkdwn(title.text)} · \`${f!.code}\``;
}

/** The root message's sentence and next step each fit about three lines (the first reply needs the rest of the screen). */
const SENTENCE_CHARS = 230;
const NEXT_CHARS = 230;

/** True when the root message shows the root cause's title or next step shortened (the details reply has them whole). */
export function verdictShortened(report: Report): boolean {
  const v = verdictOf(report);
  const f = v.finding;
  if (f?.severity !== 'error') return false;
  const titleRoom = Math.max(80, SENTENCE_CHARS - nameOf(report.target).length - v.phrase.length - f.code.length);
  return fitClause(oneLine(f.title), titleRoom).cut || (f.next !== undefined && fitClause(f.next, NEXT_CHARS).cut);
}

/** What led to this verdict, when it replaces an earlier one in the same root message. */
export interface VerdictCause {
  /** Asked again (Re-diagnose, a mention in the thread) by this user. */
  rediagnosedBy?: string;
  /** A change the bot applied and then verified. */
  change?: {
    by: string;
    /** What the change did, as its button said ("Raise to 512Mi"). */
    label: string;
    action: string;
    fixed: boolean;
    waitedSeconds: number;
  };
}

function causeLine(cause: VerdictCause): string | null {
  const c = cause.change;
  if (c) {
    const what = `<@${c.by}>'s *${escapeMrkdwn(cut(c.label, 80))}* (\`${escapeMrkdwn(c.action)}\`)`;
    return c.fixed
      ? `✅ Fixed by ${what}, verified ${c.waitedSeconds} s later.`
      : `🛠️ ${what} was applied; ${c.waitedSeconds} s later this is the verdict (the thread has the details).`;
  }
  return cause.rediagnosedBy
    ? `🔁 Diagnosed again at <@${cause.rediagnosedBy}>'s request (the thread has each answer).`
    : null;
}

export function renderVerdict(report: Report, cause: VerdictCause = {}): SlackMessage {
  const v = verdictOf(report);
  const blocks: Block[] = [section(cut(sentence(report, v), SLACK_LIMITS.sectionText))];
  if (report.followedFrom)
    blocks.push(
      context(
        `ℹ️ No namespace given: *${escapeMrkdwn(report.target.name)}* is not in ${escapeMrkdwn(report.followedFrom.namespace)}, only in ${escapeMrkdwn(report.target.namespace)}, so that one is diagnosed.`,
      ),
    );
  const why = causeLine(cause);
  if (why) blocks.push(context(why));
  const next = v.finding?.severity === 'error' ? v.finding.next : undefined;
  if (next) {
    const shown = fitClause(next, NEXT_CHARS);
    blocks.push(section(`👉 *Next:* ${escapeMrkdwn(shown.text)}${shown.cut ? ' _(whole in the thread)_' : ''}`));
  }
  // not found: the same name in other namespaces, then close names, each a "Diagnose …" button
  const alternatives = notFoundAlternatives(report);
  const buttons =
    alternatives.length > 0
      ? alternatives
          .slice(0, 3)
          .map((ref) =>
            button(
              REDIAGNOSE_ACTION,
              `Diagnose ${ref.startsWith(`${report.target.namespace}/`) ? ref.split('/')[1] : ref}`,
              ref,
            ),
          )
      : [rediagnoseButton(report.target), ...linkButtons(report)];
  blocks.push(actions(`verdict:${nameOf(report.target)}`, buttons));
  const text = `${escapeMrkdwn(verdictLine(report))}${next ? `. Next: ${escapeMrkdwn(next)}` : ''}${why ? ` (${why})` : ''}`;
  return { text: cut(text, SLACK_LIMITS.fallbackText), blocks };
}
