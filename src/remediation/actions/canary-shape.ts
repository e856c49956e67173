/**
 * Where an InferenceService keeps its canary: v1beta1 (KServe, KFServing 0.5+) has
 * `spec.predictor.canaryTrafficPercent` on one component spec; v1alpha2 has `spec.default`,
 * `spec.canary` and `spec.canaryTrafficPercent`.
 */
import { RemediationError } from '../../changes/remediation-error.js';
import type { KubeObject } from '../../kube/schemas.js';

export type CanaryShape =
  | { kind: 'v1beta1'; percent: number | undefined }
  | {
      kind: 'v1alpha2';
      percent: number | undefined;
      canary: Record<string, unknown> | undefined;
      default: Record<string, unknown>;
    };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function canaryShape(isvc: KubeObject): CanaryShape {
  const spec = isObj(isvc.spec) ? isvc.spec : {};
  if (isObj(spec.default)) {
    return {
      kind: 'v1alpha2',
      percent: typeof spec.canaryTrafficPercent === 'number' ? spec.canaryTrafficPercent : undefined,
      canary: isObj(spec.canary) ? spec.canary : undefined,
      default: spec.default,
    };
  }
  if (isObj(spec.predictor)) {
    const p = spec.predictor.canaryTrafficPercent;
    return { kind: 'v1beta1', percent: typeof p === 'number' ? p : undefined };
  }
  throw new RemediationError(
    'REMEDIATION_NOT_APPLICABLE',
    'the InferenceService has neither spec.predictor nor spec.default',
  );
}

/** "90/10 (stable/canary)" for a canary percent. */
export function describeSplit(percent: number | undefined): string {
  return percent === undefined
    ? '100% to the latest revision (no canary)'
    : `${100 - percent}% stable / ${percent}% canary`;
}
