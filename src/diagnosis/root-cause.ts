import type { FindingCode } from './finding-codes.js';
import type { Finding } from './types.js';

/**
 * Orders findings so the root cause comes first (the most specific error whose evidence explains
 * the others) and marks the findings it explains as its consequences.
 */

/** Most specific first. Codes not listed sort after, by severity. */
const SPECIFICITY: readonly FindingCode[] = [
  'ISVC_NOT_FOUND',
  'CANARY_UNHEALTHY',
  'NO_SUPPORTING_RUNTIME',
  'STORAGE_URI_NOT_FOUND',
  'STORAGE_ACCESS_DENIED',
  'MODEL_FILE_MISSING',
  'OOM_KILLED',
  'IMAGE_DIGEST_RESOLUTION_FAILED',
  'IMAGE_PULL_FAILED',
  'QUOTA_EXCEEDED',
  'POD_UNSCHEDULABLE',
  'PROBE_BLOCKED_BY_AUTH',
  'PROBE_BLOCKED_BY_RBAC',
  'GATEWAY_MISSING',
  'VIRTUALSERVICE_MISSING',
  'STORAGE_INIT_FAILED',
  // KServe 0.11 reports any predictor crash as ModelLoadFailed: the crash and its traceback say more
  'CRASH_LOOP',
  'MODEL_LOAD_FAILED',
  'READINESS_PROBE_FAILING',
  'INGRESS_NOT_CONFIGURED',
  'REVISION_MISSING',
  'ISVC_NOT_READY',
  'BOT_FORBIDDEN',
  'CLUSTER_UNREACHABLE',
  'KNATIVE_PROBES_NOT_BEST_EFFORT',
  // a healthy report opens with the clean bill, then the context
  'ISVC_READY',
  'TRAFFIC_SPLIT',
  'REQUEST_FLOW',
  'TRACING_LINKS',
];

const POD_LEVEL: readonly FindingCode[] = [
  'NO_SUPPORTING_RUNTIME',
  'STORAGE_URI_NOT_FOUND',
  'STORAGE_ACCESS_DENIED',
  'MODEL_FILE_MISSING',
  'OOM_KILLED',
  'IMAGE_DIGEST_RESOLUTION_FAILED',
  'IMAGE_PULL_FAILED',
  'QUOTA_EXCEEDED',
  'POD_UNSCHEDULABLE',
  'MODEL_LOAD_FAILED',
  'STORAGE_INIT_FAILED',
  'CRASH_LOOP',
  'READINESS_PROBE_FAILING',
];
const NOT_READY: readonly FindingCode[] = ['REVISION_MISSING', 'ISVC_NOT_READY'];
const INGRESS: readonly FindingCode[] = ['INGRESS_NOT_CONFIGURED', 'ISVC_NOT_READY'];

/** What each code's finding explains, when both are about the same component and revision. */
export const EXPLAINS: Partial<Record<FindingCode, readonly FindingCode[]>> = {
  CANARY_UNHEALTHY: [...POD_LEVEL, ...NOT_READY],
  NO_SUPPORTING_RUNTIME: [...NOT_READY, 'MODEL_LOAD_FAILED'],
  STORAGE_URI_NOT_FOUND: [...NOT_READY, 'STORAGE_INIT_FAILED', 'MODEL_LOAD_FAILED'],
  STORAGE_ACCESS_DENIED: [...NOT_READY, 'STORAGE_INIT_FAILED', 'MODEL_LOAD_FAILED'],
  MODEL_FILE_MISSING: [...NOT_READY, 'CRASH_LOOP', 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
  OOM_KILLED: [...NOT_READY, 'CRASH_LOOP', 'READINESS_PROBE_FAILING'],
  IMAGE_DIGEST_RESOLUTION_FAILED: [...NOT_READY, 'IMAGE_PULL_FAILED'],
  IMAGE_PULL_FAILED: NOT_READY,
  QUOTA_EXCEEDED: [...NOT_READY, 'POD_UNSCHEDULABLE'],
  POD_UNSCHEDULABLE: NOT_READY,
  PROBE_BLOCKED_BY_AUTH: INGRESS,
  PROBE_BLOCKED_BY_RBAC: INGRESS,
  GATEWAY_MISSING: [...INGRESS, 'VIRTUALSERVICE_MISSING'],
  VIRTUALSERVICE_MISSING: INGRESS,
  MODEL_LOAD_FAILED: [...NOT_READY, 'READINESS_PROBE_FAILING'],
  STORAGE_INIT_FAILED: [...NOT_READY, 'MODEL_LOAD_FAILED'],
  CRASH_LOOP: [...NOT_READY, 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
  READINESS_PROBE_FAILING: NOT_READY,
  INGRESS_NOT_CONFIGURED: ['ISVC_NOT_READY'],
  REVISION_MISSING: ['ISVC_NOT_READY'],
};

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

function rank(f: Finding): number {
  const i = SPECIFICITY.indexOf(f.code);
  return i < 0 ? SPECIFICITY.length + SEVERITY_ORDER[f.severity] : i;
}

/** Whether two findings can be about the same thing (a transformer crash does not explain a predictor's). */
function sameScope(a: Finding, b: Finding): boolean {
  if (a.component && b.component && a.component !== b.component) return false;
  if (a.revision && b.revision && a.revision !== b.revision) return false;
  return true;
}

export function orderFindings(findings: readonly Finding[]): Finding[] {
  const ordered = [...findings].sort((a, b) => rank(a) - rank(b) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  return ordered.map((f, i) => {
    const cause = ordered.slice(0, i).find((g) => g.code !== f.code && (EXPLAINS[g.code] ?? []).includes(f.code) && sameScope(g, f));
    return cause ? { ...f, consequenceOf: cause.code } : f;
  });
}
