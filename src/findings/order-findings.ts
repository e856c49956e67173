/**
 * Orders findings so the root cause comes first (the most specific error whose evidence explains
 * the others, by the catalog's order and `explains`) and marks the findings it explains as its
 * consequences.
 */
import { CATALOG, specificityRank } from './catalog.js';
import type { Finding } from './types.js';

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Whether two findings can be about the same thing (a transformer crash does not explain a predictor's). */
function sameScope(a: Finding, b: Finding): boolean {
  if (a.component && b.component && a.component !== b.component) return false;
  if (a.revision && b.revision && a.revision !== b.revision) return false;
  return true;
}

export function orderFindings(findings: readonly Finding[]): Finding[] {
  const ordered = [...findings].sort((a, b) => specificityRank(a.code) - specificityRank(b.code) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return ordered.map((f, i) => {
    const cause = ordered.slice(0, i).find((g) => g.code !== f.code && CATALOG[g.code].explains.includes(f.code) && sameScope(g, f));
    return cause ? { ...f, consequenceOf: cause.code } : f;
  });
}
