/**
 * Long evidence lines cut around the part that decides, not at their head: a status code
 * ("got 302", "status code 401"), an error or exception ("No such file or directory", "denied the
 * request", "ValueError: …" with its whole message). A line that fits is returned whole; a long
 * dict or JSON object in it is first reduced to its deciding entries (reduce-objects.ts), then the
 * line is cut around the deciding part, which stays whole (cut-around.ts).
 */
import { cutAround, type Focus } from './cut-around.js';
import { reduceObjects } from './reduce-objects.js';

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

/** True when the line names what went wrong: a status code, an exception, a refusal (not a bare "failed"). */
export const namesError = (line: string): boolean => KEYS.slice(0, -1).some((key) => key.test(line));

const EXCEPTION = /\b[A-Z]\w*(?:Error|Exception):/;
/** Where a clause ends: ". ", "; " or a joined line break (" ⏎ "). */
const CLAUSE_END = /[.;](?=\s|$)|\s⏎\s/;

/**
 * The part of a line that decides: an exception with its message (to the end of the line), else
 * the first key (KEYS, most telling first) to the end of its clause when that is at most `clause`
 * characters (else the key alone, to keep what leads to it); undefined when none matches.
 */
export function decidingSpan(line: string, clause = Number.POSITIVE_INFINITY): Focus | undefined {
  for (const key of KEYS) {
    const m = key.exec(line);
    if (!m) continue;
    const exception = EXCEPTION.exec(line);
    if (exception && exception.index <= m.index) return { start: exception.index, end: line.trimEnd().length };
    const after = m.index + m[0].length;
    const stop = CLAUSE_END.exec(line.slice(after));
    const end = stop ? after + stop.index + (stop[0].startsWith(' ') ? 0 : 1) : line.length;
    return { start: m.index, end: end - m.index <= clause ? end : after };
  }
  return undefined;
}

/**
 * The line when it fits in `max` characters; else its long objects reduced to their deciding
 * entries and, when still too long, a window of at most `max` characters that holds the deciding
 * part whole (a little before it, the rest after), with "…" where it was cut.
 */
export function focusLine(line: string, max: number): string {
  if (line.length <= max) return line;
  const reduced = reduceObjects(line, KEYS[KEYS.length - 1]);
  if (reduced.length <= max) return reduced;
  return cutAround(reduced, max, decidingSpan(reduced, Math.floor((max * 2) / 3)));
}
