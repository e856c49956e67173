import type { Evidence, Finding, Report } from '../findings/types.js';
import { readableLogLine } from '../logs/readable-log-line.js';
import { terminalSafe } from './terminal-safe.js';
import { verdictOf } from './verdict.js';

/**
 * The report a person reads in a terminal: root cause first, then the other findings with their
 * evidence. Every string from the cluster goes through terminalSafe first, so the only escape
 * sequences in the output are the report's own colours.
 */
export function renderTextReport(unsafe: Report, options: { color?: boolean } = {}): string {
  const report = safeStrings(unsafe);
  const c = colors(options.color ?? false);
  const { namespace, name } = report.target;
  const out: string[] = [];
  const root = report.findings[0];
  const shownLogs = new Map<string, Set<number>>();
  const verdict = verdictOf(report);
  // the verdict's own words ("is not ready", "does not exist", "is stopped (on purpose, not broken)")
  const state = verdict.kind === 'not-found' ? 'not found' : verdict.phrase.replace(/^is /, '');
  if (report.rootCause && root) {
    out.push(c.bold(`${namespace}/${name}: ${state} — root cause ${c.red(root.code)}`));
    out.push(...renderFinding(root, c, true, shownLogs));
  } else {
    const ok = verdict.kind === 'ready' || verdict.kind === 'ready-with-warnings';
    out.push(c.bold(`${namespace}/${name}: ${ok ? c.green(state) : c.yellow(state)}`));
  }
  if (report.followedFrom)
    out.splice(
      1,
      0,
      c.dim(
        `  (no namespace given: ${name} is not in ${report.followedFrom.namespace}, only in ${namespace}, so that one is diagnosed)`,
      ),
    );
  const rest = report.findings.filter((f) => f !== root || !report.rootCause);
  if (rest.length > 0) {
    out.push('');
    out.push(c.bold(report.rootCause ? 'Also found:' : 'Findings:'));
    for (const f of rest) out.push(...renderFinding(f, c, false, shownLogs));
  }
  out.push('');
  out.push(
    c.dim(
      `${report.stats.apiRequests} API requests in ${report.stats.durationMs} ms${report.target.apiVersion ? ` (${report.target.apiVersion})` : ''}`,
    ),
  );
  return `${out.join('\n')}\n`;
}

function renderFinding(f: Finding, c: Colors, isRoot: boolean, shownLogs: Map<string, Set<number>>): string[] {
  const sev = f.severity === 'error' ? c.red('error') : f.severity === 'warning' ? c.yellow('warning') : c.dim('info');
  const lines = [
    `${isRoot ? '' : '\n'}  [${f.code}] ${sev} ${f.title}${f.consequenceOf ? c.dim(` (consequence of ${f.consequenceOf})`) : ''}`,
  ];
  lines.push(c.dim(`    subject: ${f.subject}`));
  for (const e of f.evidence) {
    if (e.kind === 'log' && e.lineNumbers?.length === e.excerpt?.length) {
      // lines of the same log already shown (a consequence quoting the root cause's lines): point at them, print the rest
      const key = `${e.ref}|${e.container}|${e.previous}`;
      const shown = shownLogs.get(key) ?? new Set<number>();
      shownLogs.set(key, shown);
      const fresh = (e.lineNumbers ?? []).map((n, i) => [n, i] as const).filter(([n]) => !shown.has(n));
      const repeated = (e.lineNumbers?.length ?? 0) - fresh.length;
      for (const [n] of fresh) shown.add(n);
      if (repeated > 0) {
        const where = `    log ${e.ref}${e.container ? ` -c ${e.container}` : ''}`;
        lines.push(
          c.dim(`${where}: ${repeated} line${repeated === 1 ? '' : 's'} shown above${fresh.length ? '; also:' : ''}`),
        );
        lines.push(
          ...logLines(
            fresh.map(([n, i]) => [n, e.excerpt?.[i] ?? '']),
            c,
          ),
        );
        continue;
      }
    }
    lines.push(...renderEvidence(e, c));
  }
  if (f.next) lines.push(`    ${c.bold('next:')} ${f.next}`);
  if (f.remediation) {
    lines.push(`    fix: ${f.remediation.summary}${f.remediation.needsApproval ? ' (needs approval)' : ''}`);
    for (const d of f.remediation.diff ?? [])
      lines.push(`      ${d.startsWith('+') ? c.green(d) : d.startsWith('-') ? c.red(d) : d}`);
    if (f.remediation.manual) lines.push(...f.remediation.manual.split('\n').map((l) => `      ${l}`));
  }
  return lines;
}

function renderEvidence(e: Evidence, c: Colors): string[] {
  if (e.kind === 'log') {
    const head = `    log ${e.ref}${e.container ? ` -c ${e.container}` : ''}${e.previous ? ' --previous' : ''}${e.truncated ? ' (excerpt, lines left out)' : ''}:`;
    return [
      head,
      ...logLines(
        (e.excerpt ?? []).map((l, i) => [e.lineNumbers?.[i], l]),
        c,
      ),
    ];
  }
  if (e.kind === 'hop') {
    const mark =
      e.state === 'ok'
        ? c.green('ok')
        : e.state === 'missing'
          ? e.consequence
            ? c.dim('later')
            : c.red('missing')
          : e.state === 'failing'
            ? c.red('failing')
            : '?';
    return [`    ${mark.padEnd(7)} ${e.ref} — ${e.text ?? ''}`];
  }
  if (e.kind === 'link') return [`    ${e.text ?? 'link'}: ${e.url ?? ''}`];
  const [first = '', ...more] = (e.text ?? '').split('\n');
  const label = e.kind === 'note' ? '' : `${e.kind}: `;
  // continuation lines start under the first line's text, so a YAML block (an RBAC rule) pastes as it was
  const indent = ' '.repeat(4 + label.length);
  return [
    `    ${label}${first}${e.kind === 'note' ? '' : c.dim(`  (${e.ref})`)}`,
    // blank lines of a message (a trailing newline, a gap) would read as the end of the finding: left out
    ...more.filter((l) => l.trim() !== '').map((l) => `${indent}${l}`),
    // an excerpt (a YAML object, the lines of a ConfigMap key) under it, as it was
    ...(e.excerpt ?? []).map((l) => `${indent}${l}`),
    ...(e.excerpt && e.truncated ? [`${indent}${c.dim('… (fields that do not decide left out)')}`] : []),
  ];
}

/**
 * Numbered log lines, a JSON controller line as its level, message and error (its stack trace left
 * out; -o json keeps the raw line), and a line that says again what an earlier one said (a controller
 * retrying) shown once with the numbers of its repeats.
 */
function logLines(numbered: readonly (readonly [number | undefined, string])[], c: Colors): string[] {
  const width = String(Math.max(0, ...numbered.map(([n]) => n ?? 0))).length;
  const first = new Map<string, { n: number | undefined; again: number[] }>();
  for (const [n, raw] of numbered) {
    const text = readableLogLine(raw);
    const seen = first.get(text);
    if (seen && n !== undefined) seen.again.push(n);
    else if (!seen) first.set(text, { n, again: [] });
  }
  return [...first].map(([text, { n, again }]) => {
    const repeats = again.length ? c.dim(`  (again at line${again.length === 1 ? '' : 's'} ${again.join(', ')})`) : '';
    return `      ${c.dim(String(n ?? '').padStart(width))} ${text}${repeats}`;
  });
}

function safeStrings<T>(value: T): T {
  if (typeof value === 'string') return terminalSafe(value) as T;
  if (Array.isArray(value)) return value.map(safeStrings) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safeStrings(v)])) as T;
}

interface Colors {
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
}

function colors(on: boolean): Colors {
  const wrap = (code: string) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { bold: wrap('1'), red: wrap('31'), green: wrap('32'), yellow: wrap('33'), dim: wrap('2') };
}
