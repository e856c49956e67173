/**
 * Removes secrets from text before it leaves the cluster: passwords in URIs, Authorization headers,
 * key=value credentials, cloud access keys, tokens, JWTs, signed-URL signatures and private keys.
 */
const MASK = '[REDACTED]';

const RULES: ReadonlyArray<[RegExp, string]> = [
  // -----BEGIN ... PRIVATE KEY----- ... -----END ... PRIVATE KEY-----
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, `-----BEGIN PRIVATE KEY----- ${MASK}`],
  // scheme://user:password@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)([^\s:/@'"]+):([^\s@'"]+?)@/gi, `$1$2:${MASK}@`],
  // Authorization: Bearer xyz / "authorization": "Basic xyz"
  [/\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(bearer|basic|token|aws4-hmac-sha256)\s+)?[^\s"',;]+(?:[^\n"']*)?/gi, `$1$2 ${MASK}`],
  // X-Api-Key: value, x-auth-token=value
  [/\b(x-(?:api-key|auth-token|amz-security-token)["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi, `$1${MASK}`],
  // AWS_SECRET_ACCESS_KEY=..., password: ..., api_key="...", client_secret=...
  [
    /\b([A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|passwd|pwd|api[_-]?key|access[_-]?key(?:[_-]?id)?|private[_-]?key|credentials?)[A-Za-z0-9_.-]*["']?\s*[:=]\s*["']?)(?!\[REDACTED\])[^\s"',;&)}\]]+/gi,
    `$1${MASK}`,
  ],
  // signed URL query parameters
  [/([?&](?:x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|sig|signature|token|access_token|api_key|key)=)[^&\s"']+/gi, `$1${MASK}`],
  // AWS access key ids
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, MASK],
  // Slack, GitHub, Google API keys
  [/\bxox[abpors]-[0-9A-Za-z-]{10,}/g, MASK],
  [/\bxapp-\d-[0-9A-Za-z-]{10,}/g, MASK],
  [/\bgh[pousr]_[0-9A-Za-z]{20,}/g, MASK],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, MASK],
  // JSON Web Tokens
  [/\beyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{8,}/g, MASK],
];

export function redact(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}
