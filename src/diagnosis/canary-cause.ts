/**
 * A failing canary's own root cause, carried on the CANARY_UNHEALTHY finding: the most specific
 * finding it explains about the canary revision (its title, and the log lines or events that
 * decided it), so that the root cause shows why the canary fails, not only that it does.
 */
import type { Finding } from '../findings/types.js';

export function withCanaryCause(ordered: readonly Finding[]): Finding[] {
  return ordered.map((f) => {
    if (f.code !== 'CANARY_UNHEALTHY') return f;
    const cause = ordered.find((g) => g.consequenceOf === 'CANARY_UNHEALTHY' && g.revision === f.revision && g.severity === 'error');
    if (!cause) return f;
    const decisive = cause.evidence.filter((e) => e.kind === 'log' || e.kind === 'event').slice(0, 1);
    return {
      ...f,
      evidence: [...f.evidence, { kind: 'note' as const, ref: cause.subject, text: `the canary's own root cause: ${cause.code}: ${cause.title}` }, ...decisive],
    };
  });
}
