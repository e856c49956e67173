/**
 * Where an InferenceService keeps its canary: v1beta1 (KServe, KFServing 0.5+) has
 * `spec.predictor.canaryTrafficPercent` on one component spec (Serverless); v1alpha2 has
 * `spec.default`, `spec.canary` and `spec.canaryTrafficPercent`; KServe 0.20's Standard mode has
 * the list `spec.canary[]` (each `predictor`, with its `name`, and `trafficPercent`) next to
 * `spec.predictor` (src/kube/standard-canary.ts reads it).
 */
import { RemediationError } from '../../changes/remediation-error.js';
import type { KubeObject } from '../../kube/schemas.js';
import { type StandardCanary, stableDeploymentName, standardCanaries } from '../../kube/standard-canary.js';
import { isObj } from '../../core/plain-object.js';

export type CanaryShape =
  | { kind: 'v1beta1'; percent: number | undefined }
  | {
      kind: 'standard';
      /** The canaries' asked shares together (undefined: spec.canary is empty). */
      percent: number | undefined;
      canaries: StandardCanary[];
      /** The live spec.canary list, entries as they are. */
      entries: Record<string, unknown>[];
      stable: string;
    }
  | {
      kind: 'v1alpha2';
      percent: number | undefined;
      canary: Record<string, unknown> | undefined;
      default: Record<string, unknown>;
    };

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
  if (isObj(spec.predictor) && Array.isArray(spec.canary)) {
    const canaries = standardCanaries(isvc);
    return {
      kind: 'standard',
      percent: canaries.length ? canaries.reduce((n, c) => n + c.trafficPercent, 0) : undefined,
      canaries,
      entries: spec.canary.filter(isObj),
      stable: stableDeploymentName(isvc),
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

/**
 * The Standard-mode canary an action is about: the one named (predictor.name, or its Deployment),
 * else the only one; several and none named is refused (which one is the person's choice).
 */
export function chosenCanary(shape: Extract<CanaryShape, { kind: 'standard' }>, name?: string | null): StandardCanary {
  if (shape.canaries.length === 0)
    throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', 'spec.canary is empty: there is no canary');
  if (name) {
    const c = shape.canaries.find((x) => x.name === name || x.deployment === name);
    if (!c)
      throw new RemediationError(
        'REMEDIATION_NOT_APPLICABLE',
        `no canary ${name} in spec.canary (${shape.canaries.map((x) => x.name).join(', ')})`,
      );
    return c;
  }
  const [only, ...more] = shape.canaries;
  if (!only || more.length > 0)
    throw new RemediationError(
      'REMEDIATION_NOT_APPLICABLE',
      `spec.canary has ${shape.canaries.length} canaries (${shape.canaries.map((x) => x.name).join(', ')}): name the one`,
    );
  return only;
}
