/**
 * Where a value after a key or flag ends, and whether it is a value at all: placeholders
 * (`${HF_TOKEN}`, `<set to the key ...>`, `None`, `***`), code that names a secret rather than
 * holding it (`os.environ["HF_TOKEN"]`, `args.password`, `token=token`) and what is already
 * redacted stay as they are.
 */
import { containsMarker } from './redaction-marker.js';

export interface ValueSpan {
  /** Where the secret starts and ends (inside the quotes of a quoted value). */
  start: number;
  end: number;
  quoted: boolean;
}

const UNQUOTED_END = /[\s"'`,;&)}\]<>|\\]/;
/** Values are read at most this far: a quote that never closes costs no more than this. */
const MAX_VALUE = 4096;

/** The value that starts at `at`: a quoted string (to its closing quote) or a run up to a delimiter, or the rest of the line. */
export function valueSpan(text: string, at: number, restOfLine = false): ValueSpan {
  const open = text[at] === '\\' && /["']/.test(text[at + 1] ?? '') ? text.slice(at, at + 2) : text[at];
  if (open === '"' || open === "'" || open === '\\"' || open === "\\'") {
    const start = at + open.length;
    let end = start;
    const limit = Math.min(text.length, start + MAX_VALUE);
    while (end < limit && !text.startsWith(open, end) && text[end] !== '\n')
      end += text[end] === '\\' && open.length === 1 ? 2 : 1;
    return { start, end: Math.min(end, limit), quoted: true };
  }
  if (restOfLine) {
    const line = text
      .slice(at, at + MAX_VALUE)
      .split('\n')[0]!
      .replace(/\s+#.*$/, '')
      .trimEnd();
    return { start: at, end: at + line.length, quoted: false };
  }
  let end = at;
  const limit = Math.min(text.length, at + MAX_VALUE);
  while (end < limit && !UNQUOTED_END.test(text[end]!)) end++;
  return { start: at, end, quoted: false };
}

const PLACEHOLDER =
  /^(?:|null|none|nil|true|false|undefined|yes|no|on|off|n\/a|-+|\*+|x{3,}|str|int|bool|bytes|float|dict|list|any|optional|string|redacted)$/i;
const CODE_OBJECTS =
  /^(?:self|cls|this|args|kwargs|os|process|config|cfg|settings|options|opts|params|request|req|env|ctx|context|creds|credentials|secrets|auth)\./;
const CODE_KEYWORDS = /^(?:await|new|lambda|yield|typeof|function|async)$/;

export function isPlaceholder(value: string, key = ''): boolean {
  const v = value.trim();
  if (PLACEHOLDER.test(v) || containsMarker(v)) return true;
  if (/^(?:<[^>]*>?|\$\{?[A-Za-z_]|\$\(|%\(|%s|\{\{|\{[A-Za-z_]*\}$)/.test(v)) return true;
  if (/^[A-Za-z_][\w.]*[([]/.test(v) || CODE_OBJECTS.test(v)) return true; // a call, a subscript, an attribute of a known object
  if (CODE_KEYWORDS.test(v)) return true;
  if (isFilePath(v)) return true; // privateKey: /etc/istio/ingressgateway-certs/tls.key names a file
  return key !== '' && v.replace(/^-+/, '').toLowerCase() === key.replace(/^-+/, '').toLowerCase();
}

/** A path of lower-case words (`/etc/certs/tls.key`, `./secrets/token`), not random characters with slashes in them. */
function isFilePath(value: string): boolean {
  if (!/^(?:~|\.{1,2})?\/[\w.\-/]+$/.test(value)) return false;
  return value.split('/').filter((s) => /^[a-z][a-z0-9_.-]*$/.test(s)).length >= 2;
}

/** An unquoted value that reads like a credential rather than a word: digits or symbols in it, or mixed case. */
export function looksSecret(value: string): boolean {
  if (value.length < 6) return false;
  return /\d/.test(value) || /[^A-Za-z]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value.slice(1)));
}

/** An identifier or dotted path in code, e.g. the `hf_token` of `token=hf_token` in a traceback's source line. */
export function isIdentifier(value: string): boolean {
  return /^[A-Za-z_][\w.]*$/.test(value);
}
