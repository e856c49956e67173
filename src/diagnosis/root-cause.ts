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
  'STORAGE_URI_UNSUPPORTED',
  'NO_SUPPORTING_RUNTIME',
  'RUNTIME_UNSUPPORTED_MODEL',
  'STORAGE_URI_NOT_FOUND',
  'STORAGE_ACCESS_DENIED',
  'STORAGE_INITIALIZER_NOT_INJECTED',
  'MODEL_FILE_MISSING',
  'OOM_KILLED',
  'IMAGE_DIGEST_RESOLUTION_FAILED',
  'IMAGE_PULL_FAILED',
  'QUOTA_EXCEEDED',
  'POD_UNSCHEDULABLE',
  // a webhook's refusal is why the object it refused (a VirtualService, a Knative Service) is missing
  'ADMISSION_DENIED',
  'PROBE_BLOCKED_BY_AUTH',
  'PROBE_BLOCKED_BY_RBAC',
  'GATEWAY_MISSING',
  'VIRTUALSERVICE_MISSING',
  'STORAGE_INIT_FAILED',
  // KServe 0.11 reports any predictor crash as ModelLoadFailed: the crash and its traceback say more
  'CRASH_LOOP',
  'MODEL_LOAD_FAILED',
  'READINESS_PROBE_FAILING',
  // the controller's own error when nothing more specific names what it could not do
  'CONTROLLER_RECONCILE_FAILED',
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
  'RUNTIME_UNSUPPORTED_MODEL',
  'STORAGE_INITIALIZER_NOT_INJECTED',
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
  NO_SUPPORTING_RUNTIME: [...NOT_READY, 'MODEL_LOAD_FAILED', 'CONTROLLER_RECONCILE_FAILED'],
  STORAGE_URI_NOT_FOUND: [...NOT_READY, 'STORAGE_INIT_FAILED', 'MODEL_LOAD_FAILED', 'MODEL_FILE_MISSING'],
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
  VIRTUALSERVICE_MISSING: [...INGRESS, 'CONTROLLER_RECONCILE_FAILED'],
  MODEL_LOAD_FAILED: [...NOT_READY, 'READINESS_PROBE_FAILING'],
  STORAGE_INIT_FAILED: [...NOT_READY, 'MODEL_LOAD_FAILED'],
  CRASH_LOOP: [...NOT_READY, 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
  READINESS_PROBE_FAILING: NOT_READY,
  INGRESS_NOT_CONFIGURED: ['ISVC_NOT_READY'],
  REVISION_MISSING: ['ISVC_NOT_READY'],
  // Controller, webhook and runtime refusals:
  STORAGE_URI_UNSUPPORTED: [...NOT_READY, 'STORAGE_INIT_FAILED', 'MODEL_LOAD_FAILED', 'CONTROLLER_RECONCILE_FAILED'],
  RUNTIME_UNSUPPORTED_MODEL: [...NOT_READY, 'CRASH_LOOP', 'MODEL_LOAD_FAILED', 'READINESS_PROBE_FAILING'],
  STORAGE_INITIALIZER_NOT_INJECTED: [...NOT_READY, 'MODEL_FILE_MISSING', 'CRASH_LOOP', 'READINESS_PROBE_FAILING', 'MODEL_LOAD_FAILED'],
  ADMISSION_DENIED: [...INGRESS, 'REVISION_MISSING', 'CONTROLLER_RECONCILE_FAILED', 'VIRTUALSERVICE_MISSING', 'GATEWAY_MISSING'],
  CONTROLLER_RECONCILE_FAILED: NOT_READY,
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

function explains(g: Finding, f: Finding): boolean {
  return g.code !== f.code && ((EXPLAINS[g.code] ?? []).includes(f.code) || (g.explains ?? []).includes(f.code)) && sameScope(g, f);
}

/** A finding that explains others by its own evidence (`explains`) moves before the first of them. */
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
  const ordered = hoistExplaining([...findings].sort((a, b) => rank(a) - rank(b) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]));
  return ordered.map((f, i) => {
    const cause = ordered.slice(0, i).find((g) => explains(g, f));
    return cause ? { ...f, consequenceOf: cause.code } : f;
  });
}
