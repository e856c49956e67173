/**
 * Canary and traffic split (Kubeflow's Istio traffic split, KFServing/KServe canaryTrafficPercent,
 * Iter8 canary rollouts).
 *
 * Reports how traffic is split between revisions (or between a primary and a candidate
 * InferenceService under an Iter8 routing VirtualService), and a canary whose new revision fails
 * while the previous one still serves: a finding even when the InferenceService says Ready. Without a
 * canary, a new revision that failed while the previous one still takes the traffic is a failed
 * rollout (src/diagnosis/failed-rollout.ts), not a missing revision.
 *
 * The Standard-mode (RawDeployment) canary of KServe 0.20 (`spec.canary[]`: one Deployment per entry,
 * weighted by the HTTPRoute) is read by src/diagnosis/standard-canary-split.ts: the split from the
 * route's weights, and a canary whose Deployment is not ready, with the rollback of its spec entry.
 *
 * RBAC: list services/revisions.serving.knative.dev, list pods, list virtualservices, list
 * deployments.apps, list httproutes.gateway.networking.k8s.io.
 * Emits: TRAFFIC_SPLIT, CANARY_UNHEALTHY, ROLLOUT_FAILED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { failedRollout, revisionPodsFailing as podsFailing, rolloutFinding } from '../src/diagnosis/failed-rollout.js';
import { knativeServicesOf, podsOf, revisionsOf } from '../src/diagnosis/related-objects.js';
import { describeChanges, revisionChanges } from '../src/diagnosis/revision-changes.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import {
  canaryTrafficPercent,
  conditionOf,
  formatCondition,
  isReady,
  refOf,
} from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';
import { containerFailures } from '../src/kube/pod-status.js';
import type { KnativeService, KubeObject, Revision } from '../src/kube/schemas.js';
import { editCommand } from '../src/findings/next-step-context.js';
import { offerFix } from '../src/remediation/actions/index.js';
import { standardCanaryRead } from '../src/diagnosis/standard-canary-split.js';

/**
 * Knative sends a `latestRevision: true` share to the latest *ready* revision: while the newest one
 * is not ready, that share (the canary's) still goes to the old revision, which the status names.
 */
function heldBack(
  ksvc: { status?: { latestCreatedRevisionName?: string } },
  t: { latestRevision?: boolean; revisionName?: string },
): string {
  const created = ksvc.status?.latestCreatedRevisionName;
  return t.latestRevision && created && t.revisionName && created !== t.revisionName
    ? ` (the latest revision, ${created}, is not ready: Knative sends this share to ${t.revisionName} until it is)`
    : '';
}

export const trafficSplit: Playbook = {
  id: 'traffic-split',
  title: 'Canary and traffic split',
  emits: ['TRAFFIC_SPLIT', 'CANARY_UNHEALTHY', 'ROLLOUT_FAILED'],
  async run(ctx) {
    const standard = await standardCanaryRead(ctx);
    if (standard) {
      const failing = await Promise.all(
        standard.failing.map(async ({ finding: f, canary, stable }) => ({
          ...f,
          remediation: await offerFix('rollback-canary', ctx, {
            previous: stable,
            canary: canary.deployment,
            percent: canary.trafficPercent,
            standard: { index: canary.index, name: canary.name },
          }),
        })),
      );
      return [...(standard.split ? [standard.split] : []), ...failing];
    }
    const ns = ctx.target.namespace;
    const [services, revisions, pods, virtualServices] = await Promise.all([
      knativeServicesOf(ctx),
      revisionsOf(ctx),
      podsOf(ctx),
      ctx.reader.listKind('VirtualService', ns),
    ]);
    const out: Finding[] = [];
    const percent = canaryTrafficPercent(ctx.target.isvc);
    const splits = services.map((s) => ({
      ksvc: s,
      targets: (s.status?.traffic ?? []).filter((t) => (t.percent ?? 0) > 0),
    }));
    const subject = refOf('InferenceService', ns, ctx.target.name);

    const splitEvidence: Evidence[] = splits
      .filter(({ targets }) => targets.length > 1)
      .flatMap(({ ksvc, targets }) =>
        targets.map((t) => ({
          kind: 'field' as const,
          ref: refOf('Knative Service', ns, ksvc.metadata.name),
          text: `${t.revisionName ?? 'latest'}${t.tag ? ` (${t.tag})` : ''}: ${t.percent}%${heldBack(ksvc, t)}`,
        })),
      );
    const isvcTraffic = ctx.target.isvc.status;
    if (typeof isvcTraffic?.canaryTraffic === 'number' && isvcTraffic.canaryTraffic > 0) {
      splitEvidence.push({
        kind: 'field',
        ref: subject,
        text: `default: ${isvcTraffic.traffic ?? 100 - isvcTraffic.canaryTraffic}%, canary: ${isvcTraffic.canaryTraffic}%`,
      });
    }
    if (percent !== undefined && percent < 100)
      splitEvidence.unshift({ kind: 'field', ref: subject, text: `canaryTrafficPercent: ${percent}` });
    splitEvidence.push(...iter8Routes(ctx, virtualServices));
    // v1alpha2: the split the spec asks for is applied only once the route takes the canary (status.canaryTraffic)
    const asked =
      percent !== undefined &&
      typeof ctx.target.isvc.spec?.canary === 'object' &&
      !(typeof isvcTraffic?.canaryTraffic === 'number' && isvcTraffic.canaryTraffic > 0);
    if (splitEvidence.length > 0) {
      out.push(
        finding('TRAFFIC_SPLIT', {
          subject,
          title: asked
            ? `A canary split of ${percent}% is asked, not applied yet: the route still sends every request to the default`
            : `Traffic is split${percent !== undefined ? ` (canary ${percent}%)` : ''}`,
          evidence: splitEvidence,
        }),
      );
    }

    for (const ksvc of services) {
      const canary = failingCanary(ksvc, services, revisions, pods, percent);
      if (canary) out.push(await canaryFinding(ctx, canary, revisions, pods, percent));
      const rollout = canary || percent !== undefined ? undefined : failedRollout(ksvc, revisions, pods);
      if (rollout) out.push(rolloutFinding(ctx, rollout, revisions, pods));
    }
    return out;
  },
};

interface FailingCanary {
  ksvc: KnativeService;
  canary?: Revision;
  canaryName: string;
  previous: string;
}

function failingCanary(
  ksvc: KnativeService,
  services: KnativeService[],
  revisions: Revision[],
  pods: V1Pod[],
  percent: number | undefined,
): FailingCanary | undefined {
  const latestCreated = ksvc.status?.latestCreatedRevisionName;
  const latestReady = ksvc.status?.latestReadyRevisionName;
  // v1beta1: canaryTrafficPercent with a new revision that is not ready (or whose pods all fail) while the previous one serves
  if (percent !== undefined && latestCreated && latestReady && latestCreated !== latestReady) {
    const canary = revisions.find((r) => r.metadata.name === latestCreated);
    if (canary && (!isReady(canary) || podsFailing(pods, latestCreated)))
      return { ksvc, canary, canaryName: latestCreated, previous: latestReady };
  }
  if (percent !== undefined && latestCreated) {
    const previous = (ksvc.status?.traffic ?? []).find(
      (t) => (t.percent ?? 0) > 0 && t.revisionName && t.revisionName !== latestCreated,
    )?.revisionName;
    if (previous && podsFailing(pods, latestCreated))
      return {
        ksvc,
        canary: revisions.find((r) => r.metadata.name === latestCreated),
        canaryName: latestCreated,
        previous,
      };
  }
  // v1alpha2: a "-canary" Knative Service, not ready or with all its pods failing, next to a ready default one
  if (/-canary$/.test(ksvc.metadata.name) && (!isReady(ksvc) || podsFailing(pods, latestCreated))) {
    const defaultSvc = services.find((s) => s.metadata.name === ksvc.metadata.name.replace(/-canary$/, '-default'));
    if (defaultSvc && isReady(defaultSvc)) {
      const canary = revisions.find((r) => r.metadata.name === latestCreated);
      return {
        ksvc,
        canary,
        canaryName: latestCreated ?? ksvc.metadata.name,
        previous: defaultSvc.status?.latestReadyRevisionName ?? defaultSvc.metadata.name,
      };
    }
  }
  return undefined;
}

async function canaryFinding(
  ctx: DiagnosisContext,
  c: FailingCanary,
  revisions: Revision[],
  pods: V1Pod[],
  percent: number | undefined,
): Promise<Finding> {
  const ns = ctx.target.namespace;
  const canaryPods = pods.filter((p) => revisionOfPod(p) === c.canaryName);
  const causes = canaryPods.flatMap((p) =>
    containerFailures(p).map(
      (f) =>
        `${p.metadata?.name}: ${f.container} ${f.reason}${f.exitCode !== undefined ? ` (exit ${f.exitCode})` : ''}, ${f.restarts} restarts`,
    ),
  );
  const ready = c.canary ? conditionOf(c.canary, 'Ready') : undefined;
  const outOfRoute = canaryOutOfRoute(ctx, c);
  const split = outOfRoute
    ? `the route sends ${ctx.target.isvc.status?.traffic ?? 100}% to ${c.previous} and none to ${c.canaryName} (spec.canaryTrafficPercent ${percent ?? 0} is not applied yet)`
    : percent !== undefined
      ? `${100 - percent}% to ${c.previous}, ${percent}% to ${c.canaryName}`
      : `previous ${c.previous}, canary ${c.canaryName}`;
  // still coming up (Deploying, no pod failing) is not a failure yet
  const starting = ready?.status === 'Unknown' && causes.length === 0;
  // what the canary changed: the model's URI, the image, an arg, … (the spec change that made it)
  const changed = revisionChanges(
    revisions.find((r) => r.metadata.name === c.previous),
    c.canary,
  );
  // out of the route, the canary takes no traffic to roll back: removing spec.canary is the step
  const remediation = outOfRoute
    ? null
    : await offerFix('rollback-canary', ctx, { previous: c.previous, canary: c.canaryName, percent });
  const whoseKsvc = `Knative Service ${c.ksvc.metadata.name}`;
  const next = outOfRoute
    ? `${starting ? `Canary revision ${c.canaryName} is still starting (${ready?.reason ?? 'not ready'}): wait for it (kubectl get pods -n ${ns} -l serving.knative.dev/revision=${c.canaryName}); ` : ''}KFServing puts the canary into the route only once ${whoseKsvc} is ready and has a hostname, and until then keeps RoutesReady (and so Ready) False while ${c.previous} serves all requests; to serve without the canary, ${editCommand(ctx.target)}: remove spec.canary (spec.canaryTrafficPercent 0 alone keeps it waiting)`
    : undefined;
  return finding('CANARY_UNHEALTHY', {
    subject: refOf('Revision', ns, c.canaryName),
    title: starting
      ? `Canary revision ${c.canaryName} (${whoseKsvc}) is not ready yet (${ready?.reason ?? 'Unknown'}) while ${c.previous} serves${outOfRoute ? ' every request' : ' traffic'}`
      : `Canary revision ${c.canaryName} fails while ${c.previous} still serves traffic`,
    ...(next ? { next } : {}),
    evidence: [
      ...(outOfRoute ? [outOfRoute] : []),
      // what the canary changed decides what to fix, so it leads; the split follows
      ...(changed.length
        ? [
            {
              kind: 'field' as const,
              ref: refOf('Revision', ns, c.canaryName),
              text: `changed since ${c.previous}: ${describeChanges(changed)}`,
            },
          ]
        : []),
      { kind: 'field', ref: refOf('Knative Service', ns, c.ksvc.metadata.name), text: `split: ${split}` },
      ...(changed.length
        ? []
        : [
            {
              kind: 'field' as const,
              ref: refOf('Revision', ns, c.previous),
              text: 'previous revision: ready, serving',
            },
          ]),
      ...(ready
        ? [{ kind: 'condition' as const, ref: refOf('Revision', ns, c.canaryName), text: formatCondition(ready) }]
        : []),
      ...causes.slice(0, 3).map((text) => ({
        kind: 'field' as const,
        ref: refOf('Revision', ns, c.canaryName),
        text: `canary's own cause: ${text}`,
      })),
    ],
    remediation,
    component: componentOf(c.ksvc.metadata.labels),
    revision: c.canaryName,
  });
}

/**
 * KFServing's v1alpha2 route (0.2-0.4) takes a canary endpoint only once its Knative Service has a
 * hostname; until then RoutesReady is False (PredictorHostnameUnknown / PredictorStatusUnknown,
 * "Failed to reconcile predictor"), the top-level route keeps sending everything to the default,
 * and the InferenceService reads not Ready although the default serves.
 */
function canaryOutOfRoute(ctx: DiagnosisContext, c: FailingCanary): Evidence | undefined {
  if (!/-canary$/.test(c.ksvc.metadata.name)) return undefined;
  const routes = conditionOf(ctx.target.isvc, 'RoutesReady');
  const inRoute = typeof ctx.target.isvc.status?.canaryTraffic === 'number' && ctx.target.isvc.status.canaryTraffic > 0;
  if (!routes || routes.status === 'True' || inRoute || !/Hostname|Status/.test(routes.reason ?? '')) return undefined;
  // the deciding status field: it leads the canary's evidence
  return {
    kind: 'field',
    ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
    text: `${formatCondition(routes)} (the canary ${c.ksvc.metadata.name} has no hostname yet: KFServing leaves it out of the route)`,
  };
}

/** Iter8-style routing: a VirtualService named after the app that routes between InferenceServices. */
function iter8Routes(ctx: DiagnosisContext, virtualServices: KubeObject[]): Evidence[] {
  const app = ctx.target.isvc.metadata.labels?.['app.kubernetes.io/name'];
  // Iter8's routing VirtualService is named after the application (app.kubernetes.io/name) and
  // routes between the primary and the candidate InferenceServices; Knative's own are not it.
  const vs = virtualServices.find(
    (v) =>
      v.metadata.name !== ctx.target.name &&
      !Object.keys(v.metadata.labels ?? {}).some((k) => k.includes('knative.dev')) &&
      (v.metadata.name === app ||
        (Object.keys(v.metadata.labels ?? {}).some((k) => k.startsWith('iter8')) &&
          JSON.stringify(v.spec ?? {}).includes(ctx.target.name))),
  );
  if (!vs || !Array.isArray(vs.spec?.http)) return [];
  const ref = refOf('VirtualService', ctx.target.namespace, vs.metadata.name);
  return (vs.spec.http as Array<Record<string, unknown>>).map((route) => {
    const match =
      Array.isArray(route.match) && route.match.length
        ? describeMatch(route.match as Array<Record<string, unknown>>)
        : 'all other requests';
    const host = (route.headers as { request?: { set?: Record<string, string> } } | undefined)?.request?.set?.Host;
    const dests = Array.isArray(route.route)
      ? (route.route as Array<{
          destination?: { host?: string };
          weight?: number;
          headers?: { request?: { set?: Record<string, string> } };
        }>)
      : [];
    const targets = dests.map(
      (d) =>
        `${d.headers?.request?.set?.Host ?? host ?? d.destination?.host ?? 'unknown'}${typeof d.weight === 'number' ? ` (${d.weight}%)` : ''}`,
    );
    return {
      kind: 'field' as const,
      ref,
      text: `${route.name ? `route ${String(route.name)}: ` : ''}${match} -> ${targets.join(', ')}`,
    };
  });
}

function describeMatch(matches: Array<Record<string, unknown>>): string {
  return matches
    .map((m) => {
      const headers = m.headers as Record<string, Record<string, string>> | undefined;
      const parts = Object.entries(headers ?? {}).map(
        ([k, v]) =>
          `header ${k} ${Object.entries(v)
            .map(([op, val]) => `${op} ${val}`)
            .join(' ')}`,
      );
      return parts.length ? parts.join(' and ') : JSON.stringify(m).replace(/"/g, '');
    })
    .join(' or ');
}
