/**
 * One piece of evidence as mrkdwn: a bullet labelled with its source (event, condition, field,
 * probe, container, previous instance) for conditions, events, fields, probes, hops and links; a
 * code block with line numbers for log excerpts. Long lines are cut around the part that decides
 * (focus-line.ts), never at the head; newlines inside a value become " ⏎ " so a bullet stays one.
 */
import { isMap, parseDocument, visit } from 'yaml';
import type { Evidence } from '../../findings/types.js';
import { cutAround } from '../../logs/cut-around.js';
import { readableLogLine } from '../../logs/readable-log-line.js';
import { focusLine, keyIndex, namesError } from '../../logs/focus-line.js';
import { cut, escapeCode, escapeMrkdwn, link } from './limits.js';

/** Characters of one evidence line (a deciding line up to this long is shown whole). */
export const LINE_MAX = 400;
/** Lines of a YAML object's excerpt shown (its identity and deciding fields). */
const YAML_LINES = 16;

/**
 * A YAML object's excerpt as one line of flow YAML without the identity the bullet already names
 * (`spec: {mode: ON_WITH_INCLUSION, inclusion: {namespaces: [a, b]}}`); null when it does not parse.
 */
function flowYaml(lines: readonly string[]): string | null {
  try {
    const doc = parseDocument(lines.join('\n'));
    if (doc.errors.length > 0 || !isMap(doc.contents)) return null;
    for (const key of ['kind', 'apiVersion', 'metadata']) doc.delete(key);
    visit(doc, {
      Collection: (_key, node) => {
        node.flow = true;
      },
    });
    return doc
      .toString({ lineWidth: 0, flowCollectionPadding: false })
      .trim()
      .replace(/^\{|\}$/g, '');
  } catch {
    return null;
  }
}
const HOP_ICON: Record<NonNullable<Evidence['state']>, string> = {
  ok: '✅',
  missing: '❌',
  failing: '⚠️',
  unknown: '❔',
};

/** One line of text: inner newlines shown as ⏎, trailing ones dropped. */
export const oneLine = (text: string): string =>
  text
    .replace(/\s*\n\s*/g, ' ⏎ ')
    .replace(/(?: ⏎ )+$/, '')
    .trim();

/** "Pod ns/name" → "Pod name" (the namespace is the service's, named once in the verdict). */
export function shortRef(ref: string): string {
  return ref.replace(/^(\S+(?: \S+)?) [^/\s]+\/(\S+)$/, '$1 $2');
}

/** Where a piece of evidence comes from, as a person names it. */
export function sourceLabel(e: Evidence): string {
  if (e.kind === 'log')
    return `${e.container ? `container \`${escapeMrkdwn(e.container)}\`` : 'log'}${e.previous ? ', previous instance' : ''}`;
  if (/^terminat/i.test(e.text ?? '') || /terminated\.message/.test(e.text ?? '')) return 'termination message';
  if (/^modelStatus|\bmodelStatus\b/.test(e.text ?? '')) return 'modelStatus';
  return e.kind === 'condition' || e.kind === 'event' || e.kind === 'probe' || e.kind === 'field' ? e.kind : 'note';
}

/**
 * A bullet for any evidence that is not a log excerpt; `subject`: the finding's object, not repeated;
 * `excerptLines`: lines of a field's excerpt shown in a code block (0: joined into the bullet).
 */
export function evidenceLine(e: Evidence, subject?: string, max = LINE_MAX, excerptLines = 6): string {
  if (e.kind === 'link' && e.url) return `• ${link(e.url, e.text ?? e.ref)}`;
  const ref = e.ref === subject ? '' : escapeMrkdwn(cut(shortRef(e.ref), 100));
  if (e.kind === 'hop') {
    // a hop that follows from a failure further on is not a failure of its own
    const icon = e.consequence ? '⏳' : HOP_ICON[e.state ?? 'unknown'];
    const state = `${e.state ?? 'unknown'}${e.consequence ? ': a consequence' : ''}`;
    return `${icon} ${ref || escapeMrkdwn(cut(shortRef(e.ref), 100))}${e.text ? ` — ${escapeMrkdwn(focusLine(oneLine(e.text), max))}` : ''} _(${state})_`;
  }
  if (excerptLines === 0 && e.format === 'yaml' && e.excerpt) {
    // the first reply's compact form of an object: its deciding fields as one line of flow YAML,
    // cut between tokens (the object holds only fields that decide, the first ones first)
    const flow = flowYaml(e.excerpt);
    if (flow)
      return `• _${sourceLabel(e)}_${ref ? ` ${ref}` : ''}: \`${escapeMrkdwn(cutAround(flow, max, { start: 0, end: 0 })).replace(/`/g, "'")}\``;
  }
  if (excerptLines === 0 && e.excerpt && e.excerpt.length > 0 && e.format !== 'yaml') {
    // one line: the excerpt's lines joined (the first reply's compact form of a YAML excerpt)
    const joined = [e.text, ...e.excerpt]
      .filter(Boolean)
      .map((l) => oneLine(l!))
      .join(' · ');
    return `• _${sourceLabel(e)}_${ref ? ` ${ref}` : ''}: ${escapeMrkdwn(keyIndex(joined) >= 0 ? focusLine(joined, max) : cut(joined, max))}`;
  }
  const body = e.text ? escapeMrkdwn(focusLine(oneLine(e.text), max)) : '';
  // a YAML object is never joined line by line: its indentation is its meaning
  const n = e.format === 'yaml' ? Math.max(excerptLines, YAML_LINES) : excerptLines;
  const excerpt =
    e.excerpt && e.excerpt.length > 0
      ? `\n\`\`\`\n${e.excerpt
          .slice(0, n)
          .map((l) => escapeCode(focusLine(l, max)))
          .join('\n')}${e.excerpt.length > n ? `\n… ${e.excerpt.length - n} more` : ''}\n\`\`\``
      : '';
  return `• _${sourceLabel(e)}_${ref ? ` ${ref}` : ''}${body ? `: ${body}` : ''}${excerpt}`;
}

/** The title line above a log excerpt. */
export function logTitle(e: Evidence, subject?: string): string {
  return `*Log* of ${sourceLabel(e)}${e.ref === subject ? '' : ` in ${escapeMrkdwn(cut(shortRef(e.ref), 160))}`}`;
}

/** The index of the line an excerpt turns on: the last that names an error, else its last line. */
export function decidingIndex(lines: readonly string[]): number {
  for (let i = lines.length - 1; i >= 0; i -= 1)
    if (namesError(lines[i]!) && !/^\s*(File "|at |\[bt\])/.test(lines[i]!)) return i;
  for (let i = lines.length - 1; i >= 0; i -= 1)
    if (keyIndex(lines[i]!) >= 0 && !/^\s*(File "|at |\[bt\])/.test(lines[i]!)) return i;
  return lines.length - 1;
}

/** A line without its timestamps and numbers, to tell a repeated line from a new one. */
const sameness = (line: string) => line.replace(/[\d:.TZ-]{6,}|\b\d+\b/g, '#').replace(/"ts":[^,]*,/, '');

export interface LogBlockOptions {
  /** The first reply's form: at most this many lines ending at the deciding one, repeats skipped. */
  maxLines?: number;
  lineMax?: number;
  /** The finding's object (not repeated in the title). */
  subject?: string;
}

/**
 * A log excerpt as a ``` block with right-aligned line numbers, at most `budget` characters. In
 * full, the last lines that fit (a crash explains itself at the end) and a note on what was left
 * out; with `maxLines`, the deciding line (a traceback's exception line) and the distinct lines
 * just before it. Structured (JSON) lines show their level, message and error; every line is cut
 * around its deciding part.
 */
export function logBlock(e: Evidence, budget: number, options: LogBlockOptions = {}): string {
  const lines = (e.excerpt ?? []).map(readableLogLine);
  const title = logTitle(e, options.subject);
  if (lines.length === 0) return `${title}\n_(no log lines available)_`;
  const lineMax = options.lineMax ?? LINE_MAX;
  const numberAt = (i: number) => e.lineNumbers?.[i] ?? i + 1;
  const first = options.maxLines !== undefined;
  const kept: string[] = [];
  let used = 0;
  const overhead = title.length + 8 + 120; // fences, newlines, the note
  let indexes: number[];
  if (first) {
    // the deciding line (its first occurrence when it repeats), the line after it (what the
    // program said next), then the distinct lines before it
    const said = sameness(lines[decidingIndex(lines)]!);
    const d = lines.findIndex((l) => sameness(l) === said);
    const seen = new Set([said]);
    const distinct = (i: number) => {
      const key = sameness(lines[i]!);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    };
    indexes = [d];
    if (options.maxLines! > 1 && d + 1 < lines.length && distinct(d + 1)) indexes.push(d + 1);
    for (let i = d - 1; i >= 0 && indexes.length < options.maxLines!; i -= 1) if (distinct(i)) indexes.unshift(i);
  } else indexes = lines.map((_l, i) => i);
  const width = String(numberAt(Math.max(...indexes))).length;
  const repeats = (i: number) => (first ? lines.filter((l) => sameness(l) === sameness(lines[i]!)).length : 1);
  for (let k = indexes.length - 1; k >= 0; k -= 1) {
    const i = indexes[k]!;
    const times = repeats(i);
    const line = `${String(numberAt(i)).padStart(width)} │ ${escapeCode(focusLine(oneLine(lines[i]!), lineMax))}${times > 1 ? ` (×${times})` : ''}`;
    if (used + line.length + 1 > budget - overhead && kept.length > 0) break;
    kept.unshift(line);
    used += line.length + 1;
  }
  const omitted = lines.length - kept.length;
  const notes: string[] = [];
  if (omitted > 0)
    notes.push(`${omitted} earlier line${omitted === 1 ? '' : 's'} of the excerpt left out to fit Slack`);
  if (e.truncated) notes.push('the excerpt itself leaves out lines of the log');
  const note = notes.length > 0 && !first ? `\n_(${notes.join('; ')})_` : '';
  return `${title}\n\`\`\`\n${kept.join('\n')}\n\`\`\`${note}`;
}
