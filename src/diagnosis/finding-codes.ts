/**
 * The stable catalog of finding codes (shared/contract/findings.md, plus the codes this project adds,
 * documented in docs/findings.md). Codes never change meaning; wording around them may.
 */
export type Severity = 'error' | 'warning' | 'info';

export const SEVERITY_OF = {
  ISVC_NOT_FOUND: 'error',
  ISVC_READY: 'info',
  BOT_FORBIDDEN: 'warning',
  INGRESS_NOT_CONFIGURED: 'error',
  PROBE_BLOCKED_BY_AUTH: 'error',
  PROBE_BLOCKED_BY_RBAC: 'error',
  REVISION_MISSING: 'error',
  STORAGE_URI_NOT_FOUND: 'error',
  STORAGE_ACCESS_DENIED: 'error',
  STORAGE_INIT_FAILED: 'error',
  OOM_KILLED: 'error',
  CRASH_LOOP: 'error',
  MODEL_FILE_MISSING: 'error',
  IMAGE_PULL_FAILED: 'error',
  IMAGE_DIGEST_RESOLUTION_FAILED: 'error',
  POD_UNSCHEDULABLE: 'error',
  QUOTA_EXCEEDED: 'error',
  READINESS_PROBE_FAILING: 'error',
  GATEWAY_MISSING: 'error',
  VIRTUALSERVICE_MISSING: 'error',
  NO_SUPPORTING_RUNTIME: 'error',
  MODEL_LOAD_FAILED: 'error',
  CANARY_UNHEALTHY: 'error',
  TRAFFIC_SPLIT: 'info',
  TRACING_LINKS: 'info',
  // Added by this project (docs/findings.md):
  ISVC_NOT_READY: 'error',
  KNATIVE_PROBES_NOT_BEST_EFFORT: 'warning',
  REQUEST_FLOW: 'info',
  CLUSTER_UNREACHABLE: 'warning',
  // Controller, webhook and runtime refusals (docs/findings.md):
  CONTROLLER_RECONCILE_FAILED: 'error',
  ADMISSION_DENIED: 'error',
  STORAGE_URI_UNSUPPORTED: 'error',
  STORAGE_INITIALIZER_NOT_INJECTED: 'error',
  RUNTIME_UNSUPPORTED_MODEL: 'error',
} as const satisfies Record<string, Severity>;

export type FindingCode = keyof typeof SEVERITY_OF;

export const FINDING_CODES = Object.keys(SEVERITY_OF) as FindingCode[];

export function isFindingCode(value: string): value is FindingCode {
  return Object.prototype.hasOwnProperty.call(SEVERITY_OF, value);
}
