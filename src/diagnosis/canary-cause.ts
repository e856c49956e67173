/**
 * A failing canary's own root cause, carried on the CANARY_UNHEALTHY finding: the most specific
 * finding it explains about the canary revision (its title, and the log lines or events that
 * decided it), so that the root cause shows why the canary fails, not only that it does; and its
 * next step after the rollback, so that the advice names the canary's fix too.
 */
import type { Finding } from '../findings/types.js';

export function withCanaryCause(ordered: readonly Finding[]): Finding[] {
  return ordered.map((f) => {
    if (f.code !== 'CANARY_UNHEALTHY') return f;
    const cause = ordered.find(
      (g) => g.consequenceOf === 'CANARY_UNHEALTHY' && g.revision === f.revision && g.severity === 'error',
    );
    if (!cause) return f;
    const decisive = cause.evidence.filter((e) => e.kind === 'log' || e.kind === 'event').slice(0, 1);
    const rollback = f.next?.replace(/, then fix the canary.*$/, '');
    const next =
      rollback && cause.next
        ? `${rollback}; then, for canary revision ${f.revision ?? cause.revision}: ${cause.next}`
        : f.next;
    return {
      ...f,
      ...(next ? { next } : {}),
      evidence: [
        ...f.evidence,
        {
          kind: 'note' as const,
          ref: cause.subject,
          text: `the canary's own root cause: ${cause.code}: ${cause.title}`,
        },
        ...decisive,
      ],
    };
  });
}
