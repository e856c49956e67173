/**
 * Debug KFServing Request flow (debug guide).
 *
 * A request travels: Istio Ingress Gateway -> the InferenceService's top-level VirtualService ->
 * Knative's VirtualService for the component -> the Knative Revision's Kubernetes Service -> the
 * revision pod (queue-proxy, then the model container). This playbook reports each hop's state,
 * and a missing Gateway or VirtualService when the ingress is what keeps the service unready (with
 * the controller's log lines that say why it is missing). A RawDeployment service has none of
 * these hops: its Ingress / HTTPRoute, Service, Deployment, HPA and pods are drawn instead, and
 * when the controller made no Ingress / HTTPRoute, why it could not (an API version the cluster does
 * not serve, an ingress config it refuses: src/diagnosis/raw-ingress-cause.ts); when it made one that
 * no ingress controller gave an address, whether the IngressClass it names exists
 * (src/diagnosis/raw-ingress-class.ts). A service the controller has not created Knative Services
 * for yet has no flow to draw.
 *
 * RBAC: list virtualservices, get gateways (networking.istio.io); RawDeployment: list deployments,
 * services, ingresses, ingressclasses, httproutes, horizontalpodautoscalers; get
 * configmaps/inferenceservice-config, list pods (the controller's) and events, get pods/log (the controller's).
 * Emits: REQUEST_FLOW, GATEWAY_MISSING, VIRTUALSERVICE_MISSING, RAW_INGRESS_NOT_CREATED, RAW_INGRESS_NO_CLASS.
 */
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { controllerLinesAbout } from '../src/diagnosis/controller-lines.js';
import { rawDeploymentHops } from '../src/diagnosis/raw-deployment-hops.js';
import { ingressClassCause } from '../src/diagnosis/raw-ingress-class.js';
import { rawIngressCause } from '../src/diagnosis/raw-ingress-cause.js';
import { deploymentModeOf, knativeServicesOf, podsOf, revisionsOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { conditionOf, deploymentMode, isReady, refOf } from '../src/kube/inference-service-view.js';
import type { KnativeService, KubeObject, Revision } from '../src/kube/schemas.js';

interface GatewayRef {
  namespace: string;
  name: string;
}

/** "knative-ingress-gateway.knative-serving", "knative-serving/knative-ingress-gateway" or a bare name. */
export function parseGatewayRef(value: string, defaultNamespace: string): GatewayRef {
  if (value.includes('/')) {
    const [namespace, name] = value.split('/') as [string, string];
    return { namespace, name };
  }
  const dot = value.indexOf('.');
  return dot > 0
    ? { name: value.slice(0, dot), namespace: value.slice(dot + 1) }
    : { name: value, namespace: defaultNamespace };
}

export const requestFlow: Playbook = {
  id: 'request-flow',
  title: 'Request flow: gateway, virtual services, revision service, pods',
  emits: [
    'REQUEST_FLOW',
    'GATEWAY_MISSING',
    'VIRTUALSERVICE_MISSING',
    'RAW_INGRESS_NOT_CREATED',
    'RAW_INGRESS_NO_CLASS',
  ],
  async run(ctx) {
    const said = deploymentMode(ctx.target.isvc);
    // the Serverless reads start at once (as the mode is decided) unless the service says RawDeployment
    const serverless =
      said === 'Serverless' && ctx.target.isvc.status?.conditions?.length ? serverlessFlow(ctx) : undefined;
    serverless?.catch(() => undefined);
    const mode = await deploymentModeOf(ctx);
    const subject = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
    if (mode === 'RawDeployment') {
      const hops = await rawDeploymentHops(ctx);
      // no entry point (not as a consequence of an unready predictor), or nothing made at all: why the controller made none
      const blocked = hops.some(
        (h) => h.state === 'missing' && !h.consequence && (/^Ingress /.test(h.ref) || /^Deployment /.test(h.ref)),
      );
      const deploymentMissing = hops.some((h) => h.state === 'missing' && /^Deployment /.test(h.ref));
      return [
        ...(blocked ? await rawIngressCause(ctx, { deploymentMissing }) : await ingressClassCause(ctx)),
        finding('REQUEST_FLOW', { subject, title: 'Request flow hops (RawDeployment)', evidence: hops }),
      ];
    }
    if (mode !== 'Serverless' || !serverless) return [];
    return serverless;
  },
};

/** Gateway → top-level VirtualService → Knative VirtualService → revision Service → pods, and what is missing on it. */
async function serverlessFlow(ctx: DiagnosisContext): Promise<Finding[]> {
  const ns = ctx.target.namespace;
  const [services, revisions, pods, virtualServices] = await Promise.all([
    knativeServicesOf(ctx),
    revisionsOf(ctx),
    podsOf(ctx),
    ctx.reader.listKind('VirtualService', ns),
  ]);
  // no Knative Service yet (the controller never got that far): no flow to draw
  if (services.length === 0) return [];
  const topLevel = virtualServices.find((v) => v.metadata.name === ctx.target.name);
  const gatewayName = gatewaysOf(topLevel).find((g) => g !== 'mesh' && !/cluster-local|local-gateway/.test(g));
  const gatewayRef = parseGatewayRef(gatewayName ?? `${ctx.config.knativeNamespace}/knative-ingress-gateway`, ns);
  const gateway = await ctx.reader.readKind('IstioGateway', gatewayRef.namespace, gatewayRef.name);
  const knativeVs = services.map((s) => ({
    ksvc: s,
    vs: virtualServices.filter((v) => v.metadata.name.startsWith(s.metadata.name)),
  }));

  // KFServing/KServe create the top-level VirtualService only once every component's Knative
  // Service is ready, and Knative creates its own only once the route is
  const servicesReady = services.length > 0 && services.every((s) => isReady(s));
  const hops: Evidence[] = [
    hop(refOf('Gateway', gatewayRef.namespace, gatewayRef.name), gateway ? 'ok' : 'missing', 'Istio Ingress Gateway'),
    hop(
      refOf('VirtualService', ns, ctx.target.name),
      topLevel ? 'ok' : 'missing',
      'top-level VirtualService (InferenceService route)',
    ),
    ...knativeVs.map(({ ksvc, vs }) =>
      hop(
        refOf('VirtualService', ns, vs[0]?.metadata.name ?? `${ksvc.metadata.name}-ingress`),
        vs.length ? 'ok' : 'missing',
        `Knative VirtualService for ${ksvc.metadata.name}`,
      ),
    ),
    ...services.map((s) => revisionHop(ns, s, revisions)),
    podsHop(ns, ctx.target.name, pods),
  ];
  markConsequences(hops, services, revisions);
  const out: Finding[] = [
    finding('REQUEST_FLOW', {
      subject: refOf('InferenceService', ns, ctx.target.name),
      title: 'Request flow hops',
      evidence: hops,
    }),
  ];

  // A VirtualService that references a Gateway the cluster does not have: KServe never checks
  // that the Gateway exists, so the InferenceService may even say Ready while no request arrives.
  if (topLevel && gatewayName && !gateway) {
    out.push(
      finding('GATEWAY_MISSING', {
        subject: refOf('Gateway', gatewayRef.namespace, gatewayRef.name),
        title: `The Istio Gateway ${gatewayRef.namespace}/${gatewayRef.name} that the routes use does not exist`,
        evidence: [
          {
            kind: 'field',
            ref: refOf('VirtualService', ns, ctx.target.name),
            text: 'spec.gateways',
            excerpt: ['gateways:', ...gatewaysOf(topLevel).map((g) => `- ${g}`)],
          },
          ...ingressConditions(ctx),
        ],
      }),
    );
  }
  if (isReady(ctx.target.isvc)) return out;
  // a missing route is a finding only when what comes before it on the path is ready
  if (!servicesReady || conditionOf(ctx.target.isvc, 'IngressReady')?.status === 'True') return out;
  const why = topLevel && knativeVs.every(({ vs }) => vs.length) ? [] : await controllerWhy(ctx);
  if (!topLevel)
    out.push(
      missingVs(ctx, ctx.target.name, 'the top-level VirtualService (Istio Ingress Gateway -> InferenceService)', why),
    );
  for (const { ksvc, vs } of knativeVs) {
    if (vs.length === 0)
      out.push(
        missingVs(
          ctx,
          `${ksvc.metadata.name}-ingress`,
          `Knative's VirtualService for ${ksvc.metadata.name} (local gateway -> revision)`,
          why,
        ),
      );
  }
  return out;
}

/**
 * The revision a Knative Service routes to (its latest ready one, else its latest created one); while
 * a newer revision is not ready, the hop says that the older one still serves. The hop is the path a
 * request takes, ok through the older revision: what is wrong with the newer one is the findings'
 * to say (ROLLOUT_FAILED, a canary's failure), so its ✅ line names no failure.
 */
function revisionHop(ns: string, s: KnativeService, revisions: Revision[]): Evidence {
  const ready = s.status?.latestReadyRevisionName;
  const created = s.status?.latestCreatedRevisionName;
  const rev = revisions.find((r) => r.metadata.name === (ready ?? created));
  const svc = rev?.status?.serviceName ?? rev?.metadata.name ?? 'none';
  const newer = ready && created && created !== ready ? `; ${created}, the latest, has not taken over` : '';
  return hop(
    refOf('Service', ns, svc),
    rev ? (isReady(rev) ? 'ok' : 'failing') : 'missing',
    `Knative Revision Service (${rev?.metadata.name ?? 'no revision'}${rev && newer ? `, still serving${newer}` : ''})`,
  );
}

/**
 * A hop missing because one it depends on failed is a consequence, not a fault of its own: Knative
 * and KServe create the routes (the VirtualServices) only once the revision is ready, and a revision
 * that never became ready may have made no pods (its Deployment scaled to zero, or never created).
 */
function markConsequences(hops: Evidence[], services: KnativeService[], revisions: Revision[]): void {
  if (services.every((s) => isReady(s))) return;
  const notReady = services
    .map((s) => revisions.find((r) => r.metadata.name === s.status?.latestCreatedRevisionName))
    .find((r) => r && !isReady(r));
  const reason = notReady ? conditionOf(notReady, 'Ready')?.reason : undefined;
  // every revision ready: what is not ready is the Knative route (its ingress), not the revision
  const routeStuck = notReady
    ? undefined
    : services.map((s) => ({ s, c: conditionOf(s, 'RoutesReady') })).find(({ c }) => c && c.status !== 'True');
  const because = notReady
    ? `the revision ${notReady.metadata.name} never became ready${reason ? ` (${reason})` : ''}`
    : routeStuck
      ? `the Knative route of ${routeStuck.s.metadata.name} is not ready${routeStuck.c?.reason ? ` (${routeStuck.c.reason})` : ''}`
      : 'the revision never became ready';
  const revisionFailing = hops.some((h) => h.state === 'failing' && /^Service /.test(h.ref));
  for (const h of hops) {
    const route = /^VirtualService /.test(h.ref);
    const pods = /^Pods /.test(h.ref) && revisionFailing;
    if (h.state !== 'missing' || !(route || pods)) continue;
    h.consequence = true;
    h.text = `${h.text ?? ''}: not made, ${because}`;
  }
}

/** Ok only when every pod is ready: a partial count ("1/2 ready") is failing. */
function podsHop(
  ns: string,
  name: string,
  pods: Array<{ status?: { conditions?: Array<{ type: string; status: string }> } }>,
) {
  const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  return hop(
    `Pods ${ns}/${name}`,
    pods.length === 0 ? 'missing' : ready === pods.length ? 'ok' : 'failing',
    `revision pods: ${ready}/${pods.length} ready`,
  );
}

function hop(ref: string, state: 'ok' | 'missing' | 'failing', text: string): Evidence {
  return { kind: 'hop', ref, state, text };
}

function gatewaysOf(vs: KubeObject | undefined): string[] {
  const g = vs?.spec?.gateways;
  return Array.isArray(g) ? g.filter((x): x is string => typeof x === 'string') : [];
}

function ingressConditions(ctx: DiagnosisContext): Evidence[] {
  const c = conditionOf(ctx.target.isvc, 'IngressReady');
  return c
    ? [
        {
          kind: 'condition',
          ref: refOf('InferenceService', ctx.target.namespace, ctx.target.name),
          text: `IngressReady=${c.status}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}`,
        },
      ]
    : [];
}

function missingVs(ctx: DiagnosisContext, name: string, hopName: string, why: Evidence[]): Finding {
  return finding('VIRTUALSERVICE_MISSING', {
    subject: refOf('VirtualService', ctx.target.namespace, name),
    title: `VirtualService ${ctx.target.namespace}/${name} is missing: ${hopName}`,
    evidence: [
      { kind: 'hop', ref: refOf('VirtualService', ctx.target.namespace, name), state: 'missing', text: hopName },
      ...ingressConditions(ctx),
      ...why,
    ],
  });
}

/** The controller's latest error lines about the service that concern the ingress (why the VirtualService is missing). */
async function controllerWhy(ctx: DiagnosisContext): Promise<Evidence[]> {
  const about = /ingress|virtualservice|VirtualService/;
  return (await controllerLinesAbout(ctx)).flatMap((c) => {
    const idx = c.lines
      .map((l, i) => (about.test(l) && /error|denied|forbidden|fail/i.test(l) ? i : -1))
      .filter((i) => i >= 0)
      .slice(-2);
    return idx.length
      ? [
          {
            kind: 'log' as const,
            ref: c.ref,
            container: c.container,
            text: 'the controller on the missing ingress',
            excerpt: idx.map((i) => c.lines[i]!),
            lineNumbers: idx.map((i) => c.lineNumbers[i]!),
            truncated: false,
          },
        ]
      : [];
  });
}
