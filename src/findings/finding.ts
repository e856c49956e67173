import { CATALOG, type FindingCode } from './catalog.js';
import type { Evidence, Finding, Remediation } from './types.js';

/** Builds a finding; its severity always comes from the code's catalog entry. */
export function finding(
  code: FindingCode,
  fields: {
    subject: string;
    title: string;
    evidence?: Evidence[];
    remediation?: Remediation | null;
    component?: string;
    revision?: string;
    next?: string;
    explains?: FindingCode[];
  },
): Finding {
  return {
    code,
    severity: CATALOG[code].severity,
    subject: fields.subject,
    title: fields.title,
    evidence: fields.evidence ?? [],
    remediation: fields.remediation ?? null,
    ...(fields.component ? { component: fields.component } : {}),
    ...(fields.revision ? { revision: fields.revision } : {}),
    ...(fields.next ? { next: fields.next } : {}),
    ...(fields.explains?.length ? { explains: fields.explains } : {}),
  };
}
