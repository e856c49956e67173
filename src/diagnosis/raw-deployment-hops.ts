import { conditionOf, refOf } from '../kube/inference-service-view.js';
import type { V1Pod } from '@kubernetes/client-node';
import type { KubeObject } from '../kube/schemas.js';
import type { DiagnosisContext } from './playbook.js';
import { isvcLabelSelector, podsOf } from './related-objects.js';
import type { Evidence } from '../findings/types.js';

type Obj = Record<string, unknown>;
const num = (o: unknown, key: string): number =>
  typeof (o as Obj | undefined)?.[key] === 'number' ? ((o as Obj)[key] as number) : 0;

function hop(ref: string, state: 'ok' | 'missing' | 'failing', text: string): Evidence {
  return { kind: 'hop', ref, state, text };
}

function ownedByService(o: KubeObject, name: string): boolean {
  return (
    o.metadata.name === name ||
    (o.metadata.ownerReferences ?? []).some((r) => r.kind === 'InferenceService' && r.name === name)
  );
}

/** An Ingress, or an HTTPRoute with the Gateways it attaches to and whether they accepted it. */
function routeHop(kind: string, o: KubeObject, ns: string): Evidence {
  const ref = refOf(kind, ns, o.metadata.name);
  if (kind !== 'HTTPRoute') return hop(ref, 'ok', 'Ingress (RawDeployment entry point)');
  const parents = Array.isArray(o.spec?.parentRefs) ? (o.spec.parentRefs as Obj[]) : [];
  const statuses = Array.isArray((o.status as Obj | undefined)?.parents) ? ((o.status as Obj).parents as Obj[]) : [];
  const accepted = statuses.some(
    (p) =>
      Array.isArray(p.conditions) && (p.conditions as Obj[]).some((c) => c.type === 'Accepted' && c.status === 'True'),
  );
  const gateways = parents.map((p) => `Gateway ${String(p.namespace ?? ns)}/${String(p.name)}`).join(', ');
  return hop(
    ref,
    accepted ? 'ok' : 'failing',
    `HTTPRoute (RawDeployment entry point) → ${gateways || 'no Gateway'}${accepted ? ', accepted' : ', not accepted'}`,
  );
}

/**
 * No Ingress / HTTPRoute: a consequence while the predictor is not ready (KServe makes it only
 * after), when its Deployment says so too (a status frozen by a failing reconcile may say
 * PredictorReady=False over an available Deployment: then the missing entry is the fault).
 */
function missingEntry(ctx: DiagnosisContext, deploymentUnready: boolean): Evidence {
  const missing = hop(
    refOf('Ingress', ctx.target.namespace, ctx.target.name),
    'missing',
    'Ingress or HTTPRoute (RawDeployment entry point): none for this service',
  );
  const predictor = conditionOf(ctx.target.isvc, 'PredictorReady');
  if (!predictor || predictor.status === 'True' || !deploymentUnready) return missing;
  return {
    ...missing,
    consequence: true,
    text: `${missing.text}: not made, the predictor never became ready (PredictorReady=${predictor.status}${predictor.reason ? `, ${predictor.reason}` : ''})`,
  };
}

export async function rawDeploymentHops(ctx: DiagnosisContext): Promise<Evidence[]> {
  const ns = ctx.target.namespace;
  const name = ctx.target.name;
  const selector = isvcLabelSelector(ctx);
  const [deployments, services, ingresses, routes, hpas, pods] = await Promise.all([
    ctx.reader.listKind('Deployment', ns, selector),
    ctx.reader.services(ns, selector),
    ctx.reader.listKind('Ingress', ns),
    ctx.reader.listKind('HTTPRoute', ns),
    ctx.reader.listKind('HorizontalPodAutoscaler', ns, selector),
    podsOf(ctx),
  ]);
  const entry = [
    ...ingresses.filter((i) => ownedByService(i, name)).map((i) => ['Ingress', i] as const),
    ...routes.filter((r) => ownedByService(r, name)).map((r) => ['HTTPRoute', r] as const),
  ];
  const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  const deploymentHops = deployments.map((d) => {
    const want = num(d.spec, 'replicas');
    const have = num(d.status, 'availableReplicas');
    return hop(
      refOf('Deployment', ns, d.metadata.name),
      have > 0 && have >= Math.min(want, 1) ? 'ok' : 'failing',
      `Deployment: ${have}/${want} available`,
    );
  });
  const deploymentUnready = deploymentHops.length === 0 || deploymentHops.some((h) => h.state !== 'ok');
  return [
    ...(entry.length ? entry.map(([kind, o]) => routeHop(kind, o, ns)) : [missingEntry(ctx, deploymentUnready)]),
    ...(services.length
      ? services.map((s) =>
          hop(
            refOf('Service', ns, s.metadata?.name ?? '?'),
            'ok',
            `Service of ${s.metadata?.labels?.component ?? 'the component'}`,
          ),
        )
      : [hop(refOf('Service', ns, `${name}-predictor`), 'missing', 'the component Service')]),
    ...deploymentHops,
    ...(deployments.length
      ? []
      : [hop(refOf('Deployment', ns, `${name}-predictor`), 'missing', 'the component Deployment')]),
    ...hpas.map((h) =>
      hop(
        refOf('HorizontalPodAutoscaler', ns, h.metadata.name),
        'ok',
        `HPA: ${num(h.status, 'currentReplicas')} current, ${num(h.status, 'desiredReplicas')} desired`,
      ),
    ),
    ...podHops(ctx, deployments, pods, ready),
  ];
}

const isReadyPod = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

/**
 * The pods: one hop, or one per Deployment when there are several (a Standard-mode canary's
 * Deployment `<isvc>-<name>-predictor` next to the stable one): KServe labels each Deployment's pods
 * app=isvc.<deployment>, and a canary's pods that are not ready are not the stable's.
 */
function podHops(ctx: DiagnosisContext, deployments: KubeObject[], pods: V1Pod[], ready: number): Evidence[] {
  const ns = ctx.target.namespace;
  if (deployments.length < 2)
    return [
      hop(
        `Pods ${ns}/${ctx.target.name}`,
        pods.length === 0 ? 'missing' : ready > 0 ? 'ok' : 'failing',
        `pods: ${ready}/${pods.length} ready`,
      ),
    ];
  return deployments.map((d) => {
    const own = pods.filter((p) => p.metadata?.labels?.app === `isvc.${d.metadata.name}`);
    const up = own.filter(isReadyPod).length;
    return hop(
      `Pods ${ns}/${d.metadata.name}`,
      own.length === 0 ? 'missing' : up > 0 ? 'ok' : 'failing',
      `pods of ${d.metadata.name}: ${up}/${own.length} ready`,
    );
  });
}
