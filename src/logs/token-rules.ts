/**
 * Credentials recognisable by their own shape, wherever they stand: provider tokens with a fixed
 * prefix (kept, so a reader still sees which kind of token it was), JWTs, private keys written on
 * one line, and long random base64 such as a bare AWS secret key.
 */
import { REDACTED, redactedAs } from './redaction-marker.js';
import { regexRule, type SecretRule } from './secret-rule.js';

/** A token that starts with `prefix` (a regex source) followed by its random part. */
function prefixed(name: string, prefix: string, body: string, flags = 'g'): SecretRule {
  return regexRule(name, new RegExp(`(?<![A-Za-z0-9_])(${prefix})${body}`, flags), `$1${REDACTED}`);
}

const PEM_INLINE =
  /(-----BEGIN ([A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?)-----)(?:\\[nr]|[A-Za-z0-9+/=\s:,-](?!----))+?(?=-----END |["']|$)/g;

/** Long runs of base64 with upper- and lower-case letters and digits, which paths, hex digests and words never are. */
function redactRandomBase64(run: string): string {
  if (!/[A-Z]/.test(run) || !/[a-z]/.test(run) || !/\d/.test(run)) return run;
  const segments = run.split('/');
  if (segments.filter((s) => /^[a-z]{2,}\d*$/.test(s)).length >= 2) return run; // a path like usr/local/lib/python3
  return run.length === 40 && !run.endsWith('=') ? redactedAs('aws-secret-key') : REDACTED;
}

/** `Basic <base64 of user:password>`: only when the base64 really holds a user and a password. */
function redactBasic(match: string, scheme: string, space: string, value: string): string {
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded) ? `${scheme}${space}${REDACTED}` : match;
}

/** `Bearer <token>`: a word after "bearer" is only a token when it has digits or is long. */
function redactBearer(match: string, scheme: string, space: string, value: string): string {
  return /\d/.test(value) || value.length >= 24 ? `${scheme}${space}${REDACTED}` : match;
}

export const TOKEN_RULES: SecretRule[] = [
  regexRule('private-key-inline', PEM_INLINE, `$1${redactedAs('private-key')}`),
  regexRule('jwt', /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, redactedAs('jwt')),
  prefixed(
    'aws-access-key-id',
    '(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)',
    '[A-Z0-9]{16}(?![A-Za-z0-9])',
  ),
  prefixed('aws-session-token', '(?:FwoGZXIvYXdz|IQoJb3JpZ2lu)', '[A-Za-z0-9/+=]{40,}'),
  prefixed('github-fine-grained-pat', 'github_pat_', '[A-Za-z0-9_]{30,}'),
  prefixed('github-token', 'gh[pousr]_', '[A-Za-z0-9]{30,}'),
  prefixed('gitlab-token', 'gl(?:pat|dt|rt|ptt|cbt|soat|ft|imt|agent)-', '[A-Za-z0-9_.-]{20,}'),
  prefixed('docker-hub-token', 'dckr_(?:pat|oat)_', '[A-Za-z0-9_-]{20,}'),
  prefixed('huggingface-token', 'hf_', '[A-Za-z0-9]{30,}(?![A-Za-z0-9_])'),
  prefixed('anthropic-key', 'sk-ant-[a-z]+\\d*-', '[A-Za-z0-9_-]{20,}'),
  prefixed('openai-project-key', 'sk-(?:proj|svcacct|admin)-', '[A-Za-z0-9_-]{20,}'),
  prefixed('openai-key', 'sk-', '(?=[A-Za-z0-9]*[A-Za-z])(?=[A-Za-z0-9]*\\d)[A-Za-z0-9]{32,}(?![A-Za-z0-9_-])'),
  prefixed('stripe-key', '(?:sk|rk)_(?:live|test)_|whsec_', '[A-Za-z0-9]{20,}'),
  prefixed('slack-token', 'xox[abeoprs]-', '[A-Za-z0-9-]{10,}'),
  prefixed('slack-app-token', 'xapp-', '[A-Za-z0-9-]{10,}'),
  regexRule(
    'slack-webhook-url',
    /(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]+/g,
    `$1${REDACTED}`,
  ),
  prefixed('google-oauth-token', 'ya29\\.', '[A-Za-z0-9_.-]{20,}'),
  prefixed('google-refresh-token', '1//0', '[A-Za-z0-9_-]{30,}'),
  prefixed('google-api-key', 'AIza', '[A-Za-z0-9_-]{35}'),
  prefixed('npm-token', 'npm_', '[A-Za-z0-9]{36}'),
  prefixed('sendgrid-key', 'SG\\.', '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}'),
  prefixed('twilio-api-key', 'SK', '[0-9a-f]{32}(?![A-Za-z0-9])'),
  prefixed('databricks-token', 'dapi', '[0-9a-f]{32}(?:-\\d)?(?![A-Za-z0-9])'),
  prefixed('pypi-token', 'pypi-', 'AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}'),
  prefixed('replicate-token', 'r8_', '[A-Za-z0-9]{37}(?![A-Za-z0-9])'),
  prefixed('groq-key', 'gsk_', '[A-Za-z0-9]{48,}'),
  prefixed('shopify-token', 'shp(?:at|ca|pa|ss)_', '[a-fA-F0-9]{32}'),
  regexRule(
    'azure-ad-client-secret',
    /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
    REDACTED,
  ),
  regexRule('basic-auth', /\b(basic)(\s+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi, redactBasic),
  regexRule('bearer-token', /\b(bearer)(\s+)([A-Za-z0-9._~+/=-]{8,})/gi, redactBearer),
  regexRule(
    'random-base64',
    /(?<![A-Za-z0-9+/=_.-])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=_.-])/g,
    redactRandomBase64,
  ),
];
