/**
 * What an ISVC_NOT_FOUND finding offers instead: the same name in other namespaces (a missing or
 * wrong `-n`), or close names in the namespace asked (a typo). The diagnosis writes them as evidence
 * lines with these prefixes; the next step and Slack's "Diagnose …" buttons read them back.
 */
import type { Finding, Report } from './types.js';

export const CLOSE_NAMES_PREFIX = 'close names that exist: ';
export const OTHER_NAMESPACES_PREFIX = 'in other namespaces: ';

const DNS_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function listAfter(finding: Finding | undefined, prefix: string): string[] {
  const line = finding?.evidence.find((e) => e.text?.startsWith(prefix))?.text ?? '';
  return line
    .slice(prefix.length)
    .split(/,\s*/)
    .filter((n) => DNS_NAME.test(n));
}

/** The InferenceServices (`namespace/name`) a not-found report offers, the same name elsewhere first. */
export function notFoundAlternatives(report: Report): string[] {
  if (report.rootCause !== 'ISVC_NOT_FOUND') return [];
  const f = report.findings[0];
  const { namespace, name } = report.target;
  return [
    ...listAfter(f, OTHER_NAMESPACES_PREFIX).map((ns) => `${ns}/${name}`),
    ...listAfter(f, CLOSE_NAMES_PREFIX).map((n) => `${namespace}/${n}`),
  ];
}
