/** A proposal's param as words for a button: a non-empty string or a number, else undefined. */
export const paramText = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
