/**
 * A failing canary's or failed rollout's own root cause, carried on the CANARY_UNHEALTHY /
 * ROLLOUT_FAILED finding: the most specific finding it explains about the new revision (its title,
 * and the log lines or events that decided it), so that the root cause shows why the new revision
 * fails, not only that it does; and its next step next to the rollback, so that the advice names the
 * new revision's fix too.
 */
import { FALLBACK_LABEL } from '../findings/next-step-quality.js';
import type { Finding } from '../findings/types.js';

const CARRIERS = new Set(['CANARY_UNHEALTHY', 'ROLLOUT_FAILED']);

/** The next step: the rollback then the canary's fix; for a rollout, the new revision's fix or the rollback. */
function combinedNext(f: Finding, cause: Finding): string | undefined {
  const revision = f.revision ?? cause.revision;
  if (!f.next || !cause.next) return f.next;
  // a Standard-mode canary (KServe 0.20) is a Deployment of its own, whose fields the cause's step names
  if (f.subject.startsWith('Deployment '))
    return `${f.next.replace(/; then fix the canary in .*$/, '')}; then, for canary Deployment ${revision}: ${cause.next}`;
  // the cause only says its evidence is missing, and the step already names the revision: nothing to add
  if (cause.next.startsWith(FALLBACK_LABEL) && revision && f.next.includes(revision)) return f.next;
  if (f.code === 'ROLLOUT_FAILED') {
    const rollback = f.next.replace(/^fix what revision \S+ failed on, or /, '');
    return `for revision ${revision}: ${cause.next}; or ${rollback}`;
  }
  return `${f.next.replace(/, then fix the canary.*$/, '')}; then, for canary revision ${revision}: ${cause.next}`;
}

export function withCanaryCause(ordered: readonly Finding[]): Finding[] {
  return ordered.map((f) => {
    if (!CARRIERS.has(f.code)) return f;
    const cause = ordered.find(
      (g) => g.consequenceOf === f.code && g.revision === f.revision && g.severity === 'error',
    );
    if (!cause) return f;
    const decisive = cause.evidence.filter((e) => e.kind === 'log' || e.kind === 'event').slice(0, 1);
    const next = combinedNext(f, cause);
    const whose = f.code === 'ROLLOUT_FAILED' ? 'the new revision' : 'the canary';
    return {
      ...f,
      ...(next ? { next } : {}),
      evidence: [
        ...f.evidence,
        { kind: 'note' as const, ref: cause.subject, text: `${whose}'s own root cause: ${cause.code}: ${cause.title}` },
        ...decisive,
      ],
    };
  });
}
