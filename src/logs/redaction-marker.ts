/**
 * What redaction puts in place of a secret: `[REDACTED]` after a key name, a header scheme or a
 * token prefix that stays visible (`AccountKey=[REDACTED]`, `Bearer [REDACTED]`, `ghp_[REDACTED]`),
 * `[REDACTED:kind]` where nothing around the value says what it was (`[REDACTED:jwt]`).
 */
export const REDACTED = '[REDACTED]';

export function redactedAs(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** Every marker in a text, for code that must not cut one in half. */
export const REDACTION_MARKER = /\[REDACTED(?::[a-z0-9-]+)?\]/g;

export function containsMarker(text: string): boolean {
  return text.includes('[REDACTED');
}
