/**
 * A Python dict or JSON object inside a log line, shortened to what decides: an object of at most
 * `LONG` characters stays whole; a longer one keeps its deciding entries (error, message, reason,
 * status, code, … or an entry `keep` matches) and its short ones whole, and shows only the key of
 * the others (`'names': […]`, `"stack": "…"`). Entries are split at top-level commas, so no
 * string, number or nested group is cut.
 */
import { type Span, tokenSpans } from './token-spans.js';

const LONG = 80;
const SHORT_ENTRY = 24;
const DECIDING_KEY =
  /^(?:error|err|errors?_?(?:msg|message)?|message|msg|reason|status|status_?code|code|level|severity|exception|exc_info|detail|details|kind|name|namespace|type)$/i;
const ENTRY = /^(\s*)(["']?)([\w.@/-]+)\2(\s*[:=]\s*)([\s\S]*)$/;

function topLevelCommas(inner: string): number[] {
  const spans = tokenSpans(inner);
  const out: number[] = [];
  for (let i = 0; i < inner.length; i++) {
    const inside = spans.find(([s, e]) => i > s && i < e);
    if (inside) i = inside[1] - 1;
    else if (inner[i] === ',') out.push(i);
  }
  return out;
}

function elided(value: string): string {
  const v = value.trim();
  const first = v[0] ?? '';
  if (first === '{') return '{…}';
  if (first === '[') return '[…]';
  if (first === '(') return '(…)';
  if (first === '"' || first === "'") return `${first}…${first}`;
  return '…';
}

function reduceObject(object: string, keep?: RegExp): string {
  const inner = object.slice(1, -1);
  const cuts = [-1, ...topLevelCommas(inner), inner.length];
  const entries = cuts.slice(1).map((c, i) => inner.slice((cuts[i] ?? -1) + 1, c));
  return `{${entries
    .map((entry) => {
      const m = ENTRY.exec(entry);
      if (!m || entry.trim().length <= SHORT_ENTRY || DECIDING_KEY.test(m[3] ?? '') || keep?.test(entry)) return entry;
      const [, indent, quote, key, colon, value] = m;
      return `${indent}${quote}${key}${quote}${colon}${elided(value ?? '')}`;
    })
    .join(',')}}`;
}

/** The line with each top-level `{…}` longer than `LONG` characters reduced to its deciding entries. */
export function reduceObjects(line: string, keep?: RegExp): string {
  const objects = tokenSpans(line)
    .filter(([s, e]) => line[s] === '{' && line[e - 1] === '}' && e - s > LONG)
    .sort((a, b) => a[0] - b[0]);
  const top: Span[] = [];
  for (const o of objects) if (!top.some(([s, e]) => o[0] > s && o[1] <= e)) top.push(o);
  let out = line;
  for (const [s, e] of top.reverse()) out = `${out.slice(0, s)}${reduceObject(out.slice(s, e), keep)}${out.slice(e)}`;
  return out;
}
