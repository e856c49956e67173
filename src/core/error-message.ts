/**
 * The one way to turn anything thrown into words: the first line of its message (no stack, no
 * multi-line dumps), and its stable code when it has one.
 */

/** The first line of an error's message (or of its string form), at most `max` characters. */
export function errorMessage(error: unknown, max = 500): string {
  const text = error instanceof Error ? error.message : String(error);
  const first = text.split('\n')[0] ?? '';
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

/** The error's UPPER_SNAKE code (a CodedError's, or any `code` of that shape), else `fallback`. */
export function errorCode(error: unknown, fallback = 'INTERNAL_ERROR'): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : fallback;
}
