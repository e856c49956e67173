/**
 * Shortens redacted text to at most `max` characters (the ellipsis included) without cutting a
 * `[REDACTED…]` marker in half: a marker that would straddle the cut is left out whole. Cut only
 * text that is already redacted; a secret cut first may no longer be recognised.
 */
import { REDACTION_MARKER } from './redaction-marker.js';

export function cutLine(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - ellipsis.length);
  for (const m of text.matchAll(REDACTION_MARKER)) {
    const start = m.index ?? 0;
    if (start >= end) break;
    if (start + m[0].length > end) end = start;
  }
  return `${text.slice(0, end)}${ellipsis}`;
}
