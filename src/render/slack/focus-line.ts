/**
 * Long evidence lines cut around the part that decides, not at their head: a status code
 * ("got 302", "status code 401"), an error or exception ("No such file or directory", "denied the
 * request", "ValueError: …"). A line that fits is returned whole; a redacted value is never cut
 * inside its mask.
 */
import { REDACTION_MARKER } from '../../logs/redaction-marker.js';

/** Most telling first: the first pattern that matches a line marks the part to keep. */
const KEYS: readonly RegExp[] = [
  /\bgot [1-5]\d\d\b/,
  /\bstatus ?code:? [1-5]\d\d\b/i,
  /\b(?:No such file or directory|does not exist|not found|no matches for kind|denied the request|is forbidden|forbidden|Access ?Denied|Unauthorized|Not Authorized|OOMKilled|Insufficient [\w./-]+|exceeded quota|ErrImagePull|ImagePullBackOff|manifest unknown|Unable to fetch image|failed to resolve|cannot (?:decode|create|find|load)|invalid|Scaled down replica set \S+ to 0)\b/i,
  /\b[A-Z]\w*(?:Error|Exception)\b/,
  /\b(?:error|failed|fail|cannot|unable)\b/i,
];

/** Where the deciding part of a line is (its index), or -1. */
export function keyIndex(line: string): number {
  for (const key of KEYS) {
    const m = key.exec(line);
    if (m) return m.index;
  }
  return -1;
}

/**
 * A structured (JSON) log line as a person reads it: its level, message and error, e.g.
 * `error: Failed to reconcile: no runtime found …`; any other line as it is.
 */
export function readableLogLine(line: string): string {
  const t = line.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return line;
  try {
    const o = JSON.parse(t) as Record<string, unknown>;
    const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
    const msg = str('msg') ?? str('message');
    const err = str('error') ?? str('err');
    if (!msg && !err) return line;
    const level = str('level') ?? str('severity');
    return [level ? `${level.toLowerCase()}:` : '', [msg, err].filter(Boolean).join(': ')]
      .filter(Boolean)
      .join(' ')
      .replace(/\s*\n\s*/g, ' ⏎ ');
  } catch {
    return line;
  }
}

/** True when the line names what went wrong: a status code, an exception, a refusal (not a bare "failed"). */
export const namesError = (line: string): boolean => KEYS.slice(0, -1).some((key) => key.test(line));

/** A redaction mask ("[REDACTED…]") must not be cut in the middle: move the cut outside it. */
function clampOutsideMask(line: string, at: number, direction: -1 | 1): number {
  for (const m of line.matchAll(REDACTION_MARKER)) {
    const start = m.index ?? 0;
    if (at > start && at < start + m[0].length) return direction < 0 ? start : start + m[0].length;
  }
  return at;
}

/**
 * The line when it fits in `max` characters; else a window of about `max` characters around its
 * deciding part (a little before it, the rest after), with "…" where it was cut.
 */
export function focusLine(line: string, max: number): string {
  if (line.length <= max) return line;
  const key = keyIndex(line);
  const before = Math.min(60, Math.floor(max / 3));
  let start = key < 0 ? line.length - max : Math.max(0, Math.min(key - before, line.length - max));
  let end = Math.min(line.length, start + max);
  start = clampOutsideMask(line, start, -1);
  end = clampOutsideMask(line, end, 1);
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}
