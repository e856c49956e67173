/**
 * The verdict on one InferenceService, decided once for every surface (the Slack root message, the
 * terminal report): ready, ready but broken, not ready for a root cause, not found, stopped on purpose,
 * or not ready with no check finding why. A code's own wording comes from its catalog entry.
 */
import { CATALOG } from '../findings/catalog.js';
import type { Finding, Report } from '../findings/types.js';

export type VerdictKind =
  | 'ready'
  | 'ready-with-warnings'
  | 'ready-but-broken'
  | 'not-ready'
  | 'not-found'
  | 'stopped'
  | 'unexplained';

export interface Verdict {
  kind: VerdictKind;
  icon: string;
  /** "is not ready", "is Ready, but unreachable", … */
  phrase: string;
  /** The finding the sentence is about (the root cause, else the first error), if any. */
  finding: Finding | null;
}

/** What the root message says, decided once (the tests check it over every scenario). */
export function verdictOf(report: Report): Verdict {
  const firstError = report.findings.find((f) => f.severity === 'error') ?? null;
  const root = report.rootCause ? (report.findings.find((f) => f.code === report.rootCause) ?? firstError) : firstError;
  if (report.ready) {
    if (root) {
      const phrase = CATALOG[root.code].readyVerdict ?? 'is Ready, but failing';
      return { kind: 'ready-but-broken', icon: '⚠️', phrase, finding: root };
    }
    const warning = report.findings.find((f) => f.severity === 'warning') ?? null;
    if (warning)
      return { kind: 'ready-with-warnings', icon: '✅', phrase: 'is ready, with warnings', finding: warning };
    return { kind: 'ready', icon: '✅', phrase: 'is ready', finding: report.findings[0] ?? null };
  }
  const stopped = report.findings.find((f) => f.code === 'ISVC_STOPPED');
  if (!root && stopped)
    return { kind: 'stopped', icon: '⏸️', phrase: 'is stopped (on purpose, not broken)', finding: stopped };
  if (!root) return { kind: 'unexplained', icon: '❔', phrase: 'is not ready, and no check found why', finding: null };
  // nothing of that name to be ready or not: "is not ready" would say it exists
  if (root.code === 'ISVC_NOT_FOUND') return { kind: 'not-found', icon: '🔍', phrase: 'does not exist', finding: root };
  return { kind: 'not-ready', icon: '❌', phrase: CATALOG[root.code].notReadyVerdict ?? 'is not ready', finding: root };
}
