import { redact } from '../logs/redact.js';
import type { Finding } from './types.js';

/** Every string a finding carries, redacted: nothing leaves the diagnosis with a secret in it. */
export function redactFinding(f: Finding): Finding {
  return {
    ...f,
    title: redact(f.title),
    ...(f.next !== undefined ? { next: redact(f.next) } : {}),
    evidence: f.evidence.map((e) => ({
      ...e,
      ...(e.text !== undefined ? { text: redact(e.text) } : {}),
      ...(e.excerpt ? { excerpt: e.excerpt.map(redact) } : {}),
      ...(e.url !== undefined ? { url: redact(e.url) } : {}),
    })),
    remediation: f.remediation
      ? {
          ...f.remediation,
          summary: redact(f.remediation.summary),
          ...(f.remediation.diff ? { diff: f.remediation.diff.map(redact) } : {}),
          ...(f.remediation.manual ? { manual: redact(f.remediation.manual) } : {}),
        }
      : null,
  };
}
