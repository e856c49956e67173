/**
 * The Standard-mode (RawDeployment) canary of KServe 0.20 (`spec.canary[]`, src/kube/standard-canary.ts):
 * the split as the HTTPRoute `<isvc>-predictor` applies it (its backend weights; the controller
 * leaves a canary that is not ready out of it, so the stable Deployment keeps its share), and each
 * canary whose Deployment is not ready (`status.canaryStatuses[].ready` false, CanaryPredictorReady
 * False), with its own cause read from its Deployment's pods. CanaryPredictorReady is outside the
 * Ready rollup: the service stays Ready while its canary fails. The next step names the spec entry
 * that declares the canary (`spec.canary[i]`).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { editCommand } from '../findings/next-step-context.js';
import { finding } from '../findings/finding.js';
import type { Evidence, Finding } from '../findings/types.js';
import { conditionOf, formatCondition, refOf } from '../kube/inference-service-view.js';
import { containerFailures } from '../kube/pod-status.js';
import type { KubeObject } from '../kube/schemas.js';
import { routeShares, type StandardCanary, stableDeploymentName, standardCanaries } from '../kube/standard-canary.js';
import type { DiagnosisContext } from './playbook.js';
import { isvcLabelSelector, podsOf } from './related-objects.js';

export interface FailingStandardCanary {
  finding: Finding;
  canary: StandardCanary;
  stable: string;
}

export interface StandardCanaryRead {
  split: Finding | null;
  failing: FailingStandardCanary[];
}

type Obj = Record<string, unknown>;
const num = (o: unknown, k: string) =>
  typeof o === 'object' && o !== null && typeof (o as Obj)[k] === 'number' ? ((o as Obj)[k] as number) : 0;

/** The route the controller weights: `<isvc>-predictor` (the top-level `<isvc>` carries the same weights). */
function predictorRoute(routes: KubeObject[], isvc: string): KubeObject | undefined {
  return routes.find((r) => r.metadata.name === `${isvc}-predictor`) ?? routes.find((r) => r.metadata.name === isvc);
}

/** "spec.canary[0] (predictor.name v2): trafficPercent 20, status.canaryStatuses ready false" */
export function canaryField(c: StandardCanary): string {
  const state = c.status ? `ready ${c.status.ready}` : 'not reported yet';
  return `spec.canary[${c.index}] (predictor.name ${c.name}): trafficPercent ${c.trafficPercent}; status.canaryStatuses: ${state}`;
}

export async function standardCanaryRead(ctx: DiagnosisContext): Promise<StandardCanaryRead | null> {
  const isvc = ctx.target.isvc;
  const canaries = standardCanaries(isvc);
  if (canaries.length === 0) return null;
  const ns = ctx.target.namespace;
  const [deployments, routes, pods] = await Promise.all([
    ctx.reader.listKind('Deployment', ns, isvcLabelSelector(ctx)).catch(() => [] as KubeObject[]),
    ctx.reader.listKind('HTTPRoute', ns).catch(() => [] as KubeObject[]),
    podsOf(ctx),
  ]);
  const stable = stableDeploymentName(isvc);
  const route = predictorRoute(routes, ctx.target.name);
  const shares = route ? routeShares(route) : undefined;
  // without an HTTPRoute (an Ingress): the controller's own rule, the ready canaries' shares
  const shareOf = (service: string, c?: StandardCanary) =>
    shares
      ? (shares.find((s) => s.service === service)?.percent ?? 0)
      : c
        ? c.status?.ready
          ? c.trafficPercent
          : 0
        : 100 - canaries.filter((x) => x.status?.ready).reduce((n, x) => n + x.trafficPercent, 0);
  const subject = refOf('InferenceService', ns, ctx.target.name);
  const where = route ? refOf('HTTPRoute', ns, route.metadata.name) : subject;
  const notApplied = canaries.filter((c) => c.trafficPercent > 0 && shareOf(c.deployment, c) === 0);
  const splitText = [
    `${stable} (stable) ${shareOf(stable)}%`,
    ...canaries.map((c) => `${c.deployment} (canary ${c.name}) ${shareOf(c.deployment, c)}%`),
  ].join(', ');
  const split = finding('TRAFFIC_SPLIT', {
    subject,
    title: notApplied.length
      ? `A canary split of ${notApplied.map((c) => `${c.trafficPercent}% (canary ${c.name})`).join(', ')} is asked, not applied: ${route ? `HTTPRoute ${route.metadata.name}` : 'the route'} leaves the canary out while it is not ready, and ${stable} serves ${shareOf(stable)}%`
      : `Traffic is split: ${splitText}`,
    evidence: [
      ...canaries.map((c) => ({ kind: 'field' as const, ref: subject, text: canaryField(c) })),
      {
        kind: 'field',
        ref: where,
        text: route
          ? `weights: ${routeWeightsText(route)} → ${splitText}`
          : `no HTTPRoute ${ctx.target.name}-predictor: ${splitText} (KServe routes only ready canaries)`,
      },
    ],
  });
  const rolled = conditionOf(isvc, 'CanaryPredictorReady');
  // a stopped service's canaries are stopped with it (CanaryPredictorReady False, Stopped): not a failure
  const stopped = rolled?.status === 'False' && rolled.reason === 'Stopped';
  const failing = canaries
    .filter((c) => !stopped && (c.status?.ready === false || (!c.status && rolled?.status === 'False')))
    .map((c) => ({
      canary: c,
      stable,
      finding: failingFinding(
        ctx,
        c,
        stable,
        deployments,
        pods,
        `${shareOf(stable)}% to ${stable}, ${shareOf(c.deployment, c)}% to ${c.deployment} (spec asks ${c.trafficPercent}%)`,
      ),
    }));
  return { split, failing };
}

function routeWeightsText(route: KubeObject): string {
  const rules = (route.spec as Obj | undefined)?.rules;
  const refs = Array.isArray(rules)
    ? ((rules.find((r) => Array.isArray((r as Obj)?.backendRefs)) as Obj | undefined)?.backendRefs as Obj[] | undefined)
    : undefined;
  return (refs ?? []).map((r) => `${String(r.name)} ${typeof r.weight === 'number' ? r.weight : 1}`).join(', ');
}

function failingFinding(
  ctx: DiagnosisContext,
  c: StandardCanary,
  stable: string,
  deployments: KubeObject[],
  pods: V1Pod[],
  split: string,
): Finding {
  const ns = ctx.target.namespace;
  const ref = refOf('Deployment', ns, c.deployment);
  const own = pods.filter((p) => p.metadata?.labels?.app === `isvc.${c.deployment}`);
  const causes = own.flatMap((p) =>
    containerFailures(p).map((f) => ({
      ref: refOf('Pod', ns, p.metadata?.name ?? ''),
      text: `${p.metadata?.name}: ${f.container} ${f.reason}${f.exitCode !== undefined ? ` (exit ${f.exitCode})` : ''}, ${f.restarts} restarts`,
    })),
  );
  const d = deployments.find((x) => x.metadata.name === c.deployment);
  const available = d ? (conditionOf(d as never, 'Available') ?? undefined) : undefined;
  const starting = causes.length === 0;
  const rolled = conditionOf(ctx.target.isvc, 'CanaryPredictorReady');
  const entry = `spec.canary[${c.index}]`;
  const evidence: Evidence[] = [
    { kind: 'field', ref: refOf('InferenceService', ns, ctx.target.name), text: canaryField(c) },
    ...(rolled
      ? [
          {
            kind: 'condition' as const,
            ref: refOf('InferenceService', ns, ctx.target.name),
            text: formatCondition(rolled),
          },
        ]
      : []),
    {
      kind: 'field',
      ref,
      text: d
        ? `${num(d.status, 'availableReplicas')} of ${num(d.spec, 'replicas')} replicas available${available ? ` (${formatCondition(available)})` : ''}`
        : 'not found: the controller has not made it yet',
    },
    { kind: 'field', ref, text: `split: ${split}` },
    ...causes.slice(0, 3).map((x) => ({ kind: 'field' as const, ref: x.ref, text: `canary's own cause: ${x.text}` })),
  ];
  return finding('CANARY_UNHEALTHY', {
    subject: ref,
    title: starting
      ? `Canary ${c.name} (Deployment ${c.deployment}) is not ready yet while ${stable} serves every request`
      : `Canary ${c.name} (Deployment ${c.deployment}) fails while ${stable} serves every request`,
    next: `${editCommand(ctx.target)}: remove ${entry} (predictor.name ${c.name}) to roll back, and ${stable} keeps serving all traffic; then fix the canary in ${entry}.predictor and add it back with its trafficPercent`,
    evidence,
    remediation: null,
    component: 'predictor',
    revision: c.deployment,
  });
}
