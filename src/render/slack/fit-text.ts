/**
 * A sentence shortened for the root message: cut at the last clause boundary (";", ", or ", " (",
 * ": ", ", ") that keeps it within `max` characters, else at a word, with "…" where it was cut.
 * The whole sentence stays in the notification text and in the details reply.
 */
const BOUNDARIES = ['; ', ', or ', ' (', ': ', ', ', ' '] as const;

export function fitClause(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const room = text.slice(0, max - 1);
  for (const b of BOUNDARIES) {
    const at = room.lastIndexOf(b);
    if (at >= max * 0.5) return { text: `${text.slice(0, at).replace(/[\s,;:]+$/, '')} …`, cut: true };
  }
  return { text: `${room}…`, cut: true };
}
