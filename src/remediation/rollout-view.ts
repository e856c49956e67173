/**
 * The rollout of an InferenceService as its object states it, for `/isvc rollout`: one row per
 * revision with its role (stable / canary / latest), the percent the spec asks for and the percent
 * the status routes, whether it is ready, and why not (the condition's message); and the lag between
 * spec and status in words. Pure: reads only the object (v1beta1 and v1alpha2 shapes, and KServe
 * 0.20's Standard-mode `spec.canary[]`, whose rows are Deployments: the status percent is the
 * controller's own rule for the HTTPRoute, a canary's share while `canaryStatuses[].ready`, the rest
 * to the stable Deployment). An LLMInferenceService's rows are the members of its routing group
 * (llm-group-rollout.ts).
 */
import type { KubeObject } from '../kube/schemas.js';
import { type CanaryShape, canaryShape } from './actions/canary-shape.js';
import { llmGroupRolloutView } from './llm-group-rollout.js';
import type { RolloutOp } from './rollout-op.js';

export interface RevisionRow {
  name: string;
  role: 'stable' | 'canary' | 'latest';
  specPercent: number;
  statusPercent: number;
  ready: boolean | null;
  /** Why it is not ready (a condition's message), when known. */
  cause?: string;
  /** The label selector of its pods. */
  selector: string;
}

export interface RolloutView {
  apiVersion: string;
  /** The spec's canaryTrafficPercent (undefined: no canary). */
  canaryPercent: number | undefined;
  revisions: RevisionRow[];
  /** Spec and status disagree: what the status routes instead, in words. */
  lag: string | null;
  /** The spec field that sets the canary's share ("canaryTrafficPercent", "spec.canary[0].trafficPercent"). */
  splitField: string;
  /** The split in words when the canary percent alone would not say it (an LLMInferenceService's weights). */
  splitText?: string;
  /** The operations the rollout message offers as buttons (unset: every one that applies). */
  ops?: ReadonlyArray<RolloutOp['kind']>;
}

type Obj = Record<string, any>;
const conditionMessage = (status: Obj, type: string): { ok: boolean | null; message?: string } => {
  const c = (status.conditions ?? []).find((x: Obj) => x?.type === type);
  if (!c) return { ok: null };
  return {
    ok: c.status === 'True',
    ...(c.status !== 'True' && (c.message || c.reason) ? { message: String(c.message ?? c.reason) } : {}),
  };
};

function v1beta1Rows(isvc: KubeObject, percent: number | undefined): RevisionRow[] {
  const status = (isvc.status ?? {}) as Obj;
  const p = (status.components?.predictor ?? {}) as Obj;
  const traffic = (p.traffic ?? []) as Array<{ revisionName?: string; percent?: number }>;
  const routed = (name: string) =>
    traffic.filter((t) => t.revisionName === name).reduce((n, t) => n + (t.percent ?? 0), 0);
  const latest: string | undefined = p.latestCreatedRevision;
  const stable: string | undefined = p.previousRolledoutRevision ?? p.latestRolledoutRevision ?? p.latestReadyRevision;
  const notReady = latest !== undefined && latest !== p.latestReadyRevision;
  // a condition's message (e.g. "Revision … failed with message: …") says more than a reason alone
  const said = (type: string) =>
    ((status.conditions ?? []) as Obj[]).find((c) => c?.type === type && c.status !== 'True' && c.message)?.message as
      | string
      | undefined;
  const why = notReady
    ? (said('PredictorReady') ??
      said('Ready') ??
      said('LatestDeploymentReady') ??
      conditionMessage(status, 'LatestDeploymentReady').message)
    : undefined;
  const rows: RevisionRow[] = [];
  if (percent !== undefined && stable && latest && stable !== latest) {
    rows.push({
      name: stable,
      role: 'stable',
      specPercent: 100 - percent,
      statusPercent: routed(stable),
      ready: true,
      selector: ofRevision(stable),
    });
    rows.push({
      name: latest,
      role: 'canary',
      specPercent: percent,
      statusPercent: routed(latest),
      ready: !notReady,
      ...(why ? { cause: why } : {}),
      selector: ofRevision(latest),
    });
  } else if (latest) {
    rows.push({
      name: latest,
      role: 'latest',
      specPercent: 100,
      statusPercent: routed(latest),
      ready: !notReady,
      ...(why ? { cause: why } : {}),
      selector: ofRevision(latest),
    });
    if (stable && stable !== latest && routed(stable) > 0)
      rows.push({
        name: stable,
        role: 'stable',
        specPercent: 0,
        statusPercent: routed(stable),
        ready: true,
        selector: ofRevision(stable),
      });
  }
  return rows;
}

const ofRevision = (name: string) => `serving.knative.dev/revision=${name}`;

function standardRows(isvc: KubeObject, shape: Extract<CanaryShape, { kind: 'standard' }>): RevisionRow[] {
  const status = (isvc.status ?? {}) as Obj;
  const stable = conditionMessage(status, 'PredictorReady');
  const rolled = conditionMessage(status, 'CanaryPredictorReady');
  const asked = shape.canaries.reduce((n, c) => n + c.trafficPercent, 0);
  const routed = shape.canaries.filter((c) => c.status?.ready).reduce((n, c) => n + c.trafficPercent, 0);
  return [
    {
      name: shape.stable,
      role: shape.canaries.length ? 'stable' : 'latest',
      specPercent: 100 - asked,
      statusPercent: 100 - routed,
      ready: stable.ok,
      ...(stable.message ? { cause: stable.message } : {}),
      selector: `app=isvc.${shape.stable}`,
    },
    ...shape.canaries.map(
      (c): RevisionRow => ({
        name: c.deployment,
        role: 'canary',
        specPercent: c.trafficPercent,
        statusPercent: c.status?.ready ? c.trafficPercent : 0,
        ready: c.status ? c.status.ready : null,
        ...(c.status?.ready === false && rolled.message ? { cause: rolled.message } : {}),
        selector: `app=isvc.${c.deployment}`,
      }),
    ),
  ];
}

function v1alpha2Rows(isvc: KubeObject, percent: number | undefined): RevisionRow[] {
  const status = (isvc.status ?? {}) as Obj;
  const name = (part: Obj | undefined) => part?.predictor?.name as string | undefined;
  const rows: RevisionRow[] = [];
  const stableName = name(status.default);
  const canaryName = name(status.canary);
  const canaryRouted = typeof status.canaryTraffic === 'number' ? status.canaryTraffic : 0;
  const stableRouted = typeof status.traffic === 'number' ? status.traffic : 100 - canaryRouted;
  const def = conditionMessage(status, 'DefaultPredictorReady');
  const can = conditionMessage(status, 'CanaryPredictorReady');
  if (stableName)
    rows.push({
      name: stableName,
      role: percent === undefined ? 'latest' : 'stable',
      specPercent: 100 - (percent ?? 0),
      statusPercent: stableRouted,
      ready: def.ok,
      ...(def.message ? { cause: def.message } : {}),
      selector: ofRevision(stableName),
    });
  if (canaryName || percent !== undefined)
    rows.push({
      name: canaryName ?? '(canary not created yet)',
      role: 'canary',
      specPercent: percent ?? 0,
      statusPercent: canaryRouted,
      ready: can.ok,
      ...(can.message ? { cause: can.message } : {}),
      selector: ofRevision(canaryName ?? ''),
    });
  return rows;
}

export function rolloutView(isvc: KubeObject): RolloutView {
  // an LLMInferenceService splits by its routing group's weights (KServe 0.20)
  if (isvc.kind === 'LLMInferenceService') return llmGroupRolloutView(isvc);
  const shape = canaryShape(isvc);
  const revisions =
    shape.kind === 'standard'
      ? standardRows(isvc, shape)
      : shape.kind === 'v1alpha2'
        ? v1alpha2Rows(isvc, shape.percent)
        : v1beta1Rows(isvc, shape.percent);
  const notReady =
    shape.kind === 'standard'
      ? ": a canary is not ready, so KServe's HTTPRoute leaves it out and the stable Deployment keeps its share"
      : ': the canary is not ready, so Knative keeps its share on the last ready revision';
  const behind = revisions.filter((r) => r.specPercent !== r.statusPercent);
  const lag =
    behind.length === 0
      ? null
      : behind.map((r) => `${r.name} gets ${r.statusPercent}% (spec ${r.specPercent}%)`).join(', ') +
        (revisions.some((r) => r.role === 'canary' && r.ready === false)
          ? notReady
          : ': the status has not caught up with the spec yet');
  const splitField =
    shape.kind !== 'standard'
      ? 'canaryTrafficPercent'
      : shape.canaries.length === 1
        ? `spec.canary[0].trafficPercent (canary ${shape.canaries[0]?.name})`
        : `spec.canary[*].trafficPercent (${shape.canaries.length} canaries)`;
  return { apiVersion: String(isvc.apiVersion ?? ''), canaryPercent: shape.percent, revisions, lag, splitField };
}
