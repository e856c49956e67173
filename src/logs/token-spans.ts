/**
 * The parts of a line a cut must not split: quoted strings, matched `{…}`, `[…]` and `(…)` groups
 * and redaction markers, as [start, end) index pairs. An opener without its closer (a message
 * with an unclosed "(") is no group; an apostrophe inside a word ("model's") opens no string.
 */
import { REDACTION_MARKER } from './redaction-marker.js';

export type Span = readonly [start: number, end: number];

const CLOSER: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/** Where the quoted string that starts at `i` ends (exclusive), or -1 when it is not closed. */
function quoteEnd(text: string, i: number): number {
  const q = text.charAt(i);
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === q && (q === '"' || !/\w/.test(text[j + 1] ?? ''))) return j + 1;
  }
  return -1;
}

export function tokenSpans(text: string): Span[] {
  const spans: Array<[number, number]> = [];
  const open: Array<{ at: number; closer: string }> = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (ch === '"' || (ch === "'" && !/\w/.test(text[i - 1] ?? ''))) {
      const end = quoteEnd(text, i);
      if (end > 0) {
        spans.push([i, end]);
        i = end - 1;
      }
    } else if (CLOSER[ch] !== undefined) open.push({ at: i, closer: CLOSER[ch] });
    else if (ch === '}' || ch === ']' || ch === ')') {
      const k = open.findLastIndex((o) => o.closer === ch);
      const opener = open[k];
      if (opener) {
        spans.push([opener.at, i + 1]);
        open.length = k;
      }
    }
  }
  for (const m of text.matchAll(REDACTION_MARKER)) spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  return spans;
}

/** True when a cut at `at` (between at-1 and at) falls inside one of the spans. */
export function splits(spans: readonly Span[], at: number): boolean {
  return spans.some(([s, e]) => at > s && at < e);
}
