/**
 * Structured (JSON) controller log lines as a person reads them. A controller-runtime line carries its
 * message and error next to a Go stack trace and an `errorVerbose` copy of the error; what decides is
 * the level, the message and the error. Used by every surface that shows a log excerpt (Slack, the
 * terminal report); `-o json` keeps the raw line.
 */

/** Its level, message and error, e.g. `error: Failed to reconcile: no runtime found …`; any other line as it is. */
export function readableLogLine(line: string): string {
  const t = line.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return line;
  try {
    const o = JSON.parse(t) as Record<string, unknown>;
    const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
    const msg = str('msg') ?? str('message');
    const err = str('error') ?? str('err');
    if (!msg && !err) return line;
    const level = str('level') ?? str('severity');
    return [level ? `${level.toLowerCase()}:` : '', [msg, err].filter(Boolean).join(': ')]
      .filter(Boolean)
      .join(' ')
      .replace(/\s*\n\s*/g, ' ⏎ ');
  } catch {
    return line;
  }
}
