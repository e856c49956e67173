/**
 * Orders findings so the root cause comes first (the most specific error whose evidence explains
 * the others, by the catalog's order and `explains`) and marks the findings it explains as its
 * consequences. A finding may explain more than its code does (`Finding.explains`: a model-load
 * failure the model server logged before exiting explains that container's crash loop): it moves
 * before the first finding it explains.
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

function explains(g: Finding, f: Finding): boolean {
  return (
    g.code !== f.code &&
    (CATALOG[g.code].explains.includes(f.code) || (g.explains ?? []).includes(f.code)) &&
    sameScope(g, f)
  );
}

/** A finding that explains others by its own evidence moves before the first of them. */
function hoistExplaining(ordered: Finding[]): Finding[] {
  const out = [...ordered];
  for (const f of ordered.filter((x) => x.explains?.length)) {
    const at = out.indexOf(f);
    const first = out.findIndex((g, i) => i < at && (f.explains ?? []).includes(g.code) && sameScope(f, g));
    if (first >= 0) out.splice(first, 0, ...out.splice(at, 1));
  }
  return out;
}

export function orderFindings(findings: readonly Finding[]): Finding[] {
  const ordered = hoistExplaining(
    [...findings].sort(
      (a, b) =>
        specificityRank(a.code) - specificityRank(b.code) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
    ),
  );
  return ordered.map((f, i) => {
    const cause = ordered.slice(0, i).find((g) => explains(g, f));
    return cause ? { ...f, consequenceOf: cause.code } : f;
  });
}
