/**
 * Credentials recognisable by what stands before them: `KEY=value`, `KEY: value` and JSON
 * `"key": "value"` for secret-looking keys, `--token V` / `--password=V` / `-p V` arguments,
 * `NAME   VALUE` environment dumps, Authorization and Cookie headers, URL userinfo and signed-URL
 * query parameters. The key, flag, scheme or host stays visible; only the value is replaced.
 */
import { containsMarker, REDACTED } from './redaction-marker.js';
import { secretKeyStrength } from './secret-key-name.js';
import { regexRule, type LineContext, type SecretRule } from './secret-rule.js';
import { isIdentifier, isPlaceholder, looksSecret, valueSpan, type ValueSpan } from './secret-value.js';

/** Replaces the value after each match of `pattern` when `decide` says it is a secret. */
interface AfterKeyOptions {
  /** A cheap test on the match alone, before the value is read. */
  keyOk?: (m: RegExpExecArray) => boolean;
  /** The value runs to the end of the line (YAML). */
  restOfLine?: (m: RegExpExecArray) => boolean;
}

function afterKey(
  name: string,
  pattern: RegExp,
  decide: (m: RegExpExecArray, value: string, span: ValueSpan, context: LineContext) => boolean,
  options: AfterKeyOptions = {},
): SecretRule {
  return {
    name,
    apply(line, context) {
      let out = '';
      let from = 0;
      pattern.lastIndex = 0;
      for (let m = pattern.exec(line); m; m = pattern.exec(line)) {
        if (options.keyOk && !options.keyOk(m)) continue;
        const span = valueSpan(line, m.index + m[0].length, options.restOfLine?.(m) ?? false);
        const value = line.slice(span.start, span.end);
        if (span.end > span.start && decide(m, value, span, context)) {
          out += line.slice(from, span.start) + REDACTED;
          from = span.end;
          pattern.lastIndex = Math.max(span.end, pattern.lastIndex);
        }
      }
      return out + line.slice(from);
    },
  };
}

/** A key's value is a secret unless it is a placeholder, code in a traceback, or a plain word after a weak key or in prose. */
function isSecretValue(key: string, value: string, span: ValueSpan, context: LineContext, prose: boolean): boolean {
  const strength = secretKeyStrength(key);
  if (!strength || isPlaceholder(value, key)) return false;
  if (!span.quoted && context.codeLine && isIdentifier(value)) return false;
  return strength === 'strong' && !prose ? true : looksSecret(value);
}

/** Keys in any script: `пароль=`, `contraseña:` and `密码=` are keys as `password=` is. */
const KEY_VALUE =
  /(?<![\p{L}\p{N}_.\-/\\])(\\?["']?)([\p{L}_.][\p{L}\p{M}\p{N}_.-]{0,79})\1[ \t]*(=(?![=>~])|:(?![:=/]))[ \t]*/gu;
/** A key at the start of a line, after punctuation or quoted is structured; one after a word and a space is prose. */
const isProse = (line: string, m: RegExpExecArray) =>
  m[1] === '' && m[3] === ':' && /[A-Za-z0-9]\s+$/.test(line.slice(Math.max(0, m.index - 80), m.index));
/** `key: value` at the start of a line is YAML: the value runs to the end of the line. */
const isYamlLine = (line: string, m: RegExpExecArray) =>
  m[3] === ':' && m.index < 200 && /^[\s+\-#]*$/.test(line.slice(0, m.index));

const keyValue: SecretRule = {
  name: 'key-value',
  apply(line, context) {
    return afterKey(
      'key-value',
      KEY_VALUE,
      (m, value, span, ctx) => isSecretValue(m[2]!, value, span, ctx, isProse(line, m)),
      {
        keyOk: (m) => secretKeyStrength(m[2]!) !== undefined,
        restOfLine: (m) => isYamlLine(line, m),
      },
    ).apply(line, context);
  },
};

const secretFlag = afterKey(
  'secret-flag',
  /(?<![\w-])--([A-Za-z][\w-]*)(?:=|[ \t]+)(?=[^\s-])/g,
  (m, value, span, ctx) => isSecretValue(m[1]!, value, span, ctx, false),
  {
    keyOk: (m) => secretKeyStrength(m[1]!) !== undefined,
  },
);

/** `-p SECRET` / `-pSECRET` (and redis-cli's `-a`) only on a command line of a client that takes a password that way. */
const PASSWORD_CLIENT =
  /\b(?:mysql\w*|mariadb\w*|sshpass|psql|twine|mongo(?:sh|dump|restore)?|redis-cli|smbclient)\b|\s-u\s+\S/;
const shortPassword: SecretRule = {
  name: 'short-password-flag',
  apply(line, context) {
    if (!PASSWORD_CLIENT.test(line)) return line;
    return afterKey(
      'short-password-flag',
      /(?<![\w-])-[pa](?:[ \t]+|(?=[^\s-]))(?=[^\s-])/g,
      (_m, value) => !/^(?:\d+(?::\d+)?|[/.~].*)$/.test(value) && !isPlaceholder(value),
    ).apply(line, context);
  },
};

/** `NAME   VALUE` rows of an environment dump: an upper-case secret name, then the value up to the end of the line. */
const ENV_ROW = /^(\s*)([A-Z][A-Z0-9_]*[A-Z0-9])([ \t]+)(\S(?:.*\S)?)(\s*)$/;
const envDump: SecretRule = {
  name: 'env-dump',
  apply(line) {
    const m = ENV_ROW.exec(line);
    if (!m || !secretKeyStrength(m[2]!) || isPlaceholder(m[4]!, m[2]) || containsMarker(m[4]!)) return line;
    if (m[3]!.length < 2 && !m[3]!.includes('\t') && !looksSecret(m[4]!)) return line;
    return `${m[1]}${m[2]}${m[3]}${REDACTED}${m[5]}`;
  },
};

/** `Authorization: <scheme> <credentials>` in any casing and quoting; the scheme stays. */
const authorization = afterKey(
  'authorization-header',
  /(?<![\w-])(?:proxy-)?authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:(?:bearer|basic|token|negotiate|apikey|sso-key)[ \t]+)?/gi,
  (_m, value) => !isPlaceholder(value) && !containsMarker(value),
);

/** Cookie and Set-Cookie headers: each cookie's value, not its name or attributes. */
const cookie = regexRule(
  'cookie-header',
  /(\b(?:set-)?cookie\\?["']?[ \t]*[:=][ \t]*)([^\n"']+)/gi,
  (_all, head: string, pairs: string) =>
    head +
    pairs.replace(/([\w.-]+=)([^;,\s]+)/g, (pair, name: string, value: string) =>
      /^(?:path|domain|expires|max-age|samesite|priority)=$/i.test(name) || containsMarker(value)
        ? pair
        : `${name}${REDACTED}`,
    ),
);

/** scheme://user:password@host (the user may be empty, the password may hold `@` and `/`). */
const urlUserinfo = regexRule(
  'url-userinfo',
  /\b([a-z][a-z0-9+.-]{1,30}:\/\/[^\s:/@'"]{0,256}:)([^\s'"]{0,256}?)(@(?:\[[0-9a-f:.]+\]|[a-z0-9._%-]+)(?=[:/?#'"\s)\],;]|$))/gi,
  // not a password: an image reference nested in another (`docker-pullable://gcr.io/x@sha256:...`)
  (all, head: string, password: string, tail: string) =>
    password === '' || containsMarker(password) || password.startsWith('//') || /^@sha\d+$/i.test(tail)
      ? all
      : `${head}${REDACTED}${tail}`,
);

const urlQuery = regexRule(
  'url-query-secret',
  /([?&;](?:x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|sig|signature|key|code|token|access_token|refresh_token|id_token|private_token|api_key|apikey|client_secret|password|passwd|secret)=)(?!\[REDACTED)[^&\s"'#]+/gi,
  `$1${REDACTED}`,
);

/**
 * `{"name": "DB_PASSWORD", "value": "..."}` (a Kubernetes env entry on one line, JSON or flow YAML),
 * or `- name: DB_PASSWORD  value: ...` (block YAML flattened onto one line inside an event, condition
 * or termination message): the name says what the value is.
 */
const ENV_ENTRY =
  /(\bname\\?["']?[ \t]*:[ \t]*\\?["']?([A-Za-z_][\w.-]{0,79})\\?["']?(?:[ \t]*,[ \t]*|[ \t]+)\\?["']?value\\?["']?[ \t]*:[ \t]*)/g;
const envEntry = afterKey(
  'env-entry',
  ENV_ENTRY,
  (m, value) => secretKeyStrength(m[2]!) === 'strong' && !isPlaceholder(value, m[2]),
);

/**
 * `user:password` after a client's basic-auth flag (`curl -u deploy:PW`, `--user=ci:PW`, httpie's
 * `-a`/`--auth`) on a line that fetches a URL; a numeric `uid:gid` (`docker run -u 1000:1000`) is no password.
 */
const basicAuthFlag = afterKey(
  'basic-auth-flag',
  /(?<![\w-])(?:-u|--user|-a|--auth)(?:=|[ \t]+)["']?[^\s:'"]{1,128}:(?=[^\s'"])/g,
  (_m, value) => !/^\d+$/.test(value) && !isPlaceholder(value),
);
const basicAuthOnFetch: SecretRule = {
  name: 'basic-auth-flag',
  apply: (line, context) => (/:\/\/|\b(?:curl|wget|https?)\b/.test(line) ? basicAuthFlag.apply(line, context) : line),
};

/**
 * A credential stated in prose: `db password is X`, `the admin password was set to X`, `token is "X"`.
 * Only a value that reads like a credential (digits, symbols or mixed case: not `expired`, `required`).
 */
const PROSE_VERB = /[ \t]+(?:is set to|was set to|set to|changed to|is|was)[ \t]+(?=\S)/gi;
/** The word before a verb match (`password` of `db password is X`); the verb is matched first, as it is rarer than words. */
const wordBefore = (m: RegExpExecArray) =>
  /(?<![\p{L}\p{N}_])[\p{L}_][\p{L}\p{N}_-]{0,40}$/u.exec(m.input.slice(Math.max(0, m.index - 48), m.index))?.[0] ?? '';
const proseSecret = afterKey(
  'prose-secret',
  PROSE_VERB,
  (m, value, span) => {
    const key = wordBefore(m);
    const word = value.replace(/[.,:;!?]+$/, '');
    if (span.quoted) return !isPlaceholder(value, key);
    // `the secret is s3-credentials` names a Kubernetes Secret (a DNS-1123 name), it does not hold one
    if (/^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(word)) return false;
    return looksSecret(word) && /[\d\W]/.test(word) && !isPlaceholder(word, key);
  },
  { keyOk: (m) => secretKeyStrength(wordBefore(m)) === 'strong' },
);

export const KEY_VALUE_RULES: SecretRule[] = [
  envEntry,
  basicAuthOnFetch,
  proseSecret,
  authorization,
  cookie,
  urlUserinfo,
  urlQuery,
  secretFlag,
  shortPassword,
  keyValue,
  envDump,
];
