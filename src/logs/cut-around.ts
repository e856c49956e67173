/**
 * Shortens a line to at most `max` characters around the part that decides (`focus`, e.g. a
 * matched pattern or an exception's message): that part is kept whole, with what surrounds it on
 * both sides as room allows and "…" on each side that was cut. Cuts fall between words, outside
 * quoted strings, numbers and `{…}`/`[…]`/`(…)` groups where the line allows it, never inside a
 * `[REDACTED…]` marker. A deciding part longer than `max` keeps its head, cut the same way.
 * Cut only text that is already redacted (see cut-line.ts).
 */
import { REDACTION_MARKER } from './redaction-marker.js';
import { type Span, splits, tokenSpans } from './token-spans.js';

export interface Focus {
  start: number;
  end: number;
}

/** Of the context before the deciding part, at most this much (the rest of the room goes after it). */
const BEFORE = 60;

const markerSpans = (text: string): Span[] =>
  [...text.matchAll(REDACTION_MARKER)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length] as const);

/** Passes from strictest to loosest: a cut between words outside every group, outside every group, between words. */
function passes(text: string, spans: readonly Span[]): Array<(at: number) => boolean> {
  const markers = markerSpans(text);
  const space = (at: number) =>
    /\s/.test(text.charAt(at)) || /\s/.test(text.charAt(at - 1)) || at <= 0 || at >= text.length;
  return [
    (at) => space(at) && !splits(spans, at),
    (at) => !splits(spans, at),
    (at) => space(at) && !splits(markers, at),
    (at) => !splits(markers, at),
  ];
}

/**
 * The first position from `from` toward `to` (inclusive) that a pass accepts, trying each pass in
 * turn; a stricter pass looks at most `reach` characters away (a cut far back would waste the room).
 */
function snap(oks: Array<(at: number) => boolean>, from: number, to: number, reach: number): number {
  const step = to >= from ? 1 : -1;
  for (const [k, ok] of oks.entries()) {
    const last = k < oks.length - 1 ? from + step * Math.min(reach, Math.abs(to - from)) : to;
    for (let at = from; step > 0 ? at <= last : at >= last; at += step) if (ok(at)) return at;
  }
  return to;
}

export function cutAround(text: string, max: number, focus?: Focus, ellipsis = '…'): string {
  if (text.length <= max) return text;
  const s = Math.max(0, Math.min(focus?.start ?? text.length, text.length));
  const e = Math.max(s, Math.min(focus?.end ?? text.length, text.length));
  // a group that holds the whole deciding part may be cut: the part matters, not its brackets
  const spans = tokenSpans(text).filter(([a, b]) => !(a <= s && b >= e && b - a > max));
  const oks = passes(text, spans);
  const room = Math.max(1, max - 2 * ellipsis.length);
  const reach = Math.max(24, Math.floor((room * 2) / 3));
  let start: number;
  let end: number;
  if (e - s > room) {
    start = s;
    end = snap(oks, s + room, s + Math.floor(room / 2), reach);
  } else {
    const spare = room - (e - s);
    const after = Math.min(text.length - e, spare - Math.min(s, BEFORE, Math.floor(max / 3), spare));
    const before = Math.min(s, spare - after);
    start = snap(oks, s - before, s, reach);
    end = snap(oks, e + after, e, reach);
  }
  const head = text.slice(start, end).trim();
  return `${start > 0 ? ellipsis : ''}${head}${end < text.length ? ellipsis : ''}`;
}
