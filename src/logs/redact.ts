/**
 * Removes credentials from text before it leaves the process: the one engine behind every surface
 * (log excerpts, condition and event messages, Slack, the bot's own logs, audit entries).
 *
 * - `redactText(text)`: any text, one line or many (a log, a termination message, a message body).
 * - `redactLines(lines)`: lines of one log, in order; it follows what spans lines (the body of a
 *   PEM / OpenSSH private key, Python source quoted by a traceback) and keeps one output line per
 *   input line, so line numbers still hold.
 * - `redactDeep(value)` (redact-deep.ts): objects such as log records and audit entries.
 *
 * Redact before cutting: a cut secret may no longer match any rule (see cut-line.ts).
 */
import { KEY_VALUE_RULES } from './key-value-rules.js';
import { REDACTED, redactedAs } from './redaction-marker.js';
import { secretKeyStrength } from './secret-key-name.js';
import { isPlaceholder } from './secret-value.js';
import type { LineContext, SecretRule } from './secret-rule.js';
import { TOKEN_RULES } from './token-rules.js';

/** Every rule, in the order they run: shapes first (they keep a token's prefix), then what stands before a value. */
export const SECRET_RULES: readonly SecretRule[] = [...TOKEN_RULES, ...KEY_VALUE_RULES];

const KEY_BEGIN = /-----BEGIN ([A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?)-----["'\s]*$/;
const KEY_ANY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY/;
const KEY_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
const TRACEBACK_FRAME = /^\s*File "[^"]*", line \d+/;
/** A key body line: base64 alone on the line, or a long base64 word after a log prefix; or a PEM header. */
const BODY_ALONE = /^(\s*)[A-Za-z0-9+/]+={0,2}(\s*)$/;
const BODY_WORD = /(^|\s)[A-Za-z0-9+/]{16,}={0,2}(\s*)$/;
const PEM_HEADER = /^\s*(?:Proc-Type|DEK-Info|Comment):/;
const PRIVATE_KEY = redactedAs('private-key');

/** One line on its own, with no knowledge of the lines around it. */
export function redactLine(line: string, context: LineContext = { codeLine: false }): string {
  let out = line;
  for (const rule of SECRET_RULES) out = rule.apply(out, context);
  return out;
}

/** A line's prefix with its digits made alike: the timestamps of one log's prefixes differ only in digits. */
const shapeOf = (text: string) => text.replace(/\d/g, '0');
const MARKER_ALONE = /^\s*\[REDACTED(?::[a-z0-9-]+)?\]\s*$/;
const BASE64_REST = /^(\s*)[A-Za-z0-9+/]+={0,2}(\s*)$/;

/**
 * A key body line. `prefixShape` is the shape of what stood before `-----BEGIN` (a log prefix such
 * as a timestamp or a level): after the same prefix, base64 of any length is a body line, so the
 * short last line of a block is masked too.
 */
function bodyLine(line: string, prefixShape = ''): string | undefined {
  if (PEM_HEADER.test(line) || line.trim() === '') return line;
  const samePrefix = prefixShape.trim() !== '' && shapeOf(line.slice(0, prefixShape.length)) === prefixShape;
  // a body line already masked (text redacted before, e.g. a message quoted in another) is still a body line
  if (MARKER_ALONE.test(samePrefix ? line.slice(prefixShape.length) : line)) return line;
  if (samePrefix) {
    const rest = BASE64_REST.exec(line.slice(prefixShape.length));
    if (rest) return `${line.slice(0, prefixShape.length)}${rest[1]}${PRIVATE_KEY}${rest[2]}`;
  }
  const alone = BODY_ALONE.exec(line);
  if (alone) return `${alone[1]}${PRIVATE_KEY}${alone[2]}`;
  const m = BODY_WORD.exec(line);
  return m ? `${line.slice(0, m.index)}${m[1]}${PRIVATE_KEY}${m[2]}` : undefined;
}

export function redactLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inKey = false;
  let prefixShape = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (inKey || (KEY_END.test(line) && !KEY_ANY_BEGIN.test(line))) {
      const end = KEY_END.exec(line);
      if (end) {
        if (!inKey) maskBodyBefore(lines, out); // the BEGIN line was cut off (a log's tail): mask the body lines before END
        const before = line.slice(0, end.index);
        // what stands before END is the log's prefix (kept), or the last body line glued to END (masked)
        const prefix = shapeOf(before) === prefixShape || !/[0-9+/=]/.test(before);
        out.push(`${prefix ? before : (bodyLine(before) ?? before)}${line.slice(end.index)}`);
        inKey = false;
        continue;
      }
      const body = bodyLine(line, prefixShape);
      if (body !== undefined) {
        out.push(body);
        continue;
      }
      inKey = false; // not a key line after all: the block was cut short
    }
    const context = { codeLine: i > 0 && TRACEBACK_FRAME.test(lines[i - 1]!) };
    out.push(i > 0 ? redactEnvValue(lines[i - 1]!, redactLine(line, context)) : redactLine(line, context));
    const begin = KEY_BEGIN.exec(line);
    if (begin) {
      inKey = true;
      prefixShape = shapeOf(line.slice(0, begin.index));
    }
  }
  return out;
}

const ENV_NAME_LINE = /^\s*-?\s*name:\s*["']?([A-Za-z_][\w.-]*)["']?\s*$/;
const ENV_VALUE_LINE = /^(\s*value:\s*)(["']?)(.*?)\2(\s*)$/;

/** A YAML env entry over two lines (`- name: DB_PASSWORD` then `  value: ...`): the name says what the value is. */
function redactEnvValue(previous: string, line: string): string {
  const name = ENV_NAME_LINE.exec(previous);
  if (!name || secretKeyStrength(name[1]!) !== 'strong') return line;
  const v = ENV_VALUE_LINE.exec(line);
  if (!v || v[3] === '' || isPlaceholder(v[3]!, name[1])) return line;
  return `${v[1]}${v[2]}${REDACTED}${v[2]}${v[4]}`;
}

/** Masks the key body lines just before an END line whose BEGIN is not in the text. */
function maskBodyBefore(lines: readonly string[], out: string[]): void {
  for (let j = out.length - 1; j >= 0; j--) {
    const body = bodyLine(lines[j]!);
    if (body === undefined || lines[j]!.trim() === '') return;
    out[j] = body;
  }
}

/** Any text: redacted line by line, with the line breaks it had. */
export function redactText(text: string): string {
  if (text === '') return text;
  const parts = text.split(/(\r?\n)/);
  const lines = parts.filter((_, i) => i % 2 === 0);
  const redacted = redactLines(lines);
  return parts.map((p, i) => (i % 2 === 0 ? redacted[i / 2]! : p)).join('');
}

/** The name callers used before `redactText`. */
export const redact = redactText;
