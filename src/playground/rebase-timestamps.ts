/**
 * Moves a snapshot's timestamps (creationTimestamp, lastTransitionTime, event times…) so that its
 * latest one lies `agoMs` before now: a scenario captured years ago then reads as a problem of the
 * last few minutes, and the bot's "unready since" and incident ages make sense in the playground.
 */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function walk(value: unknown, visit: (s: string) => string | undefined): unknown {
  if (typeof value === 'string') return TIMESTAMP.test(value) ? (visit(value) ?? value) : value;
  if (Array.isArray(value)) return value.map((v) => walk(v, visit));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, visit)]));
  return value;
}

export function rebaseTimestamps(
  objects: Record<string, unknown>[],
  now: number,
  agoMs: number,
): Record<string, unknown>[] {
  let latest = 0;
  walk(objects, (s) => {
    latest = Math.max(latest, Date.parse(s));
    return undefined;
  });
  if (latest === 0) return objects;
  const shift = now - agoMs - latest;
  return walk(objects, (s) => new Date(Date.parse(s) + shift).toISOString().replace(/\.000Z$/, 'Z')) as Record<
    string,
    unknown
  >[];
}
