import type { Report } from '../findings/types.js';

/** The report as the one JSON object `isvc-doctor diagnose -o json` prints (its fields: README.md). */
export function renderJsonReport(report: Report): string {
  return JSON.stringify(
    {
      target: report.target,
      ...(report.followedFrom ? { followedFrom: report.followedFrom } : {}),
      ready: report.ready,
      rootCause: report.rootCause,
      findings: report.findings.map((f) => ({
        code: f.code,
        severity: f.severity,
        title: f.title,
        subject: f.subject,
        ...(f.consequenceOf ? { consequenceOf: f.consequenceOf } : {}),
        ...(f.component ? { component: f.component } : {}),
        ...(f.revision ? { revision: f.revision } : {}),
        evidence: f.evidence,
        next: f.next ?? null,
        remediation: f.remediation,
      })),
      stats: report.stats,
    },
    null,
    2,
  );
}
