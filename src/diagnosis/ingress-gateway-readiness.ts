/**
 * Knative waiting for its load balancer: the Route's ingress stays `Uninitialized` "Waiting for load
 * balancer to be ready" while the revision is ready. Knative's networking controller marks the
 * ingress ready only once its probes through every pod of the ingress gateway reach the revision, so
 * what keeps it waiting is the gateway: a Service with no ready pod behind it, or pods that never
 * loaded the Gateway's configuration (a TLS server whose Secret appeared after they started; the
 * pods take it on restart). Which gateway: the Service KServe's inferenceservice-config names
 * (`ingress.ingressService`), else the Service in istio-system that selects the pods the Istio
 * Gateway knative-ingress-gateway selects; its pods are read by that selector. The finding and its
 * next step name that Service, its pods and what to do with them.
 */
import { unlessForbidden } from './unless-forbidden.js';
import type { V1Pod, V1Service } from '@kubernetes/client-node';
import { finding } from '../findings/finding.js';
import type { Evidence, Finding } from '../findings/types.js';
import { conditionOf, formatCondition, refOf } from '../kube/inference-service-view.js';
import type { KnativeService, KubeObject } from '../kube/schemas.js';
import { componentOf } from '../kube/pod-labels.js';
import { ingressConfigOf, ingressValue, serviceHostRef } from './ingress-config.js';
import type { DiagnosisContext } from './playbook.js';
import { ISTIO_NAMESPACE } from './probe-blockers.js';

const WAITING = /Waiting for load balancer/i;

/** The Knative Service's route condition that waits for the load balancer, while its configuration is ready. */
export function waitingForLoadBalancer(ksvc: KnativeService) {
  const route = [conditionOf(ksvc, 'RoutesReady'), conditionOf(ksvc, 'Ready')].find(
    (c) => c && c.status !== 'True' && (c.reason === 'Uninitialized' || WAITING.test(c.message ?? '')),
  );
  return route && WAITING.test(route.message ?? '') && conditionOf(ksvc, 'ConfigurationsReady')?.status === 'True'
    ? route
    : undefined;
}

const selectorText = (s: Record<string, string>) =>
  Object.entries(s)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/** The Deployment a pod belongs to (its ReplicaSet's name without the template hash). */
function deploymentOf(pod: V1Pod): string | undefined {
  const rs = pod.metadata?.ownerReferences?.find((o) => o.kind === 'ReplicaSet')?.name;
  return rs ? rs.replace(/-[a-z0-9]{5,10}$/, '') : undefined;
}

const podReady = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** The Secrets the Gateway's TLS servers read (credentialName), in the gateway pods' namespace. */
function credentialNames(gateway: KubeObject | null): string[] {
  const servers = Array.isArray(gateway?.spec?.servers) ? (gateway.spec.servers as Array<Record<string, unknown>>) : [];
  return servers
    .map((s) => (s.tls as Record<string, unknown> | undefined)?.credentialName)
    .filter((n): n is string => typeof n === 'string');
}

export async function gatewayNotServingRoute(
  ctx: DiagnosisContext,
  services: KnativeService[],
  gateway: KubeObject | null,
): Promise<Finding[]> {
  const waiting = services.flatMap((s) => {
    const c = waitingForLoadBalancer(s);
    return c ? [{ ksvc: s, condition: c }] : [];
  });
  const first = waiting[0];
  if (!first) return [];
  const knativeNs = ctx.config.knativeNamespace;
  const gatewayRef = refOf('Gateway', knativeNs, 'knative-ingress-gateway');
  const selector =
    gateway?.spec?.selector && typeof gateway.spec.selector === 'object'
      ? (gateway.spec.selector as Record<string, string>)
      : { istio: 'ingressgateway' };
  const config = await ingressConfigOf(ctx);
  const configured = serviceHostRef(ingressValue(config, 'ingressService'));
  const svcNs = configured?.namespace ?? ISTIO_NAMESPACE;
  const [svcs, pods] = await Promise.all([
    unlessForbidden<V1Service[]>(ctx.reader.services(svcNs), []),
    unlessForbidden<V1Pod[]>(ctx.reader.pods(svcNs, selectorText(selector)), []),
  ]);
  const selects = (s: V1Service) => {
    const sel = s.spec?.selector ?? {};
    return Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => selector[k] === v);
  };
  const svc =
    svcs.find((s) => s.metadata?.name === configured?.name) ??
    svcs.find(selects) ??
    svcs.find((s) => s.metadata?.name === 'istio-ingressgateway');
  const svcName = configured?.name ?? svc?.metadata?.name ?? 'istio-ingressgateway';
  const svcRef = refOf('Service', svcNs, svcName);
  const ready = pods.filter(podReady);
  const deployment = pods.map(deploymentOf).find((d) => d) ?? svcName;
  const secrets = credentialNames(gateway);
  const ns = ctx.target.namespace;
  const names = waiting.map((w) => w.ksvc.metadata.name).join(', ');
  const revision = first.ksvc.status?.latestReadyRevisionName;

  const evidence: Evidence[] = [
    ...waiting.map((w) => ({
      kind: 'condition' as const,
      ref: refOf('Knative Service', ns, w.ksvc.metadata.name),
      text: formatCondition(w.condition),
    })),
    {
      kind: 'condition',
      ref: refOf('Knative Service', ns, first.ksvc.metadata.name),
      text: `ConfigurationsReady=True${revision ? `: revision ${revision} is ready` : ''}`,
    },
    {
      kind: 'field',
      ref: gatewayRef,
      text: `selector ${selectorText(selector)}${secrets.length ? `; TLS servers read Secret ${secrets.join(', ')} from ${svcNs}` : ''}`,
    },
    {
      kind: 'field',
      ref: svcRef,
      text: `${configured && config ? `${config.ref.replace(/^ConfigMap /, '')} ingress.ingressService; ` : ''}${
        svc
          ? `type ${svc.spec?.type ?? 'ClusterIP'}${
              svc.spec?.type === 'LoadBalancer' && !svc.status?.loadBalancer?.ingress?.length
                ? ', EXTERNAL-IP pending'
                : ''
            }`
          : 'not seen'
      }; pods (${selectorText(selector)}): ${ready.length}/${pods.length} ready`,
    },
  ];
  const probed = `Knative marks ${names} ready once its probes through every gateway pod reach ${revision ?? 'the revision'}`;
  const secretStep = secrets.length
    ? `; the Gateway ${knativeNs}/knative-ingress-gateway's TLS servers need Secret ${secrets.join(', ')} in ${svcNs} before the pods start`
    : '';
  const restart = `kubectl rollout restart deployment/${deployment} -n ${svcNs} (or kubectl delete pod -n ${svcNs} -l ${selectorText(selector)})`;
  let next: string;
  let why: string;
  if (pods.length > 0 && ready.length === 0) {
    const p = pods[0];
    why = `none of its ${pods.length} pods is ready`;
    next = `The ingress gateway ${svcNs}/${svcName} has no ready pod: kubectl describe pod ${p?.metadata?.name} -n ${svcNs} says why; ${probed}`;
  } else if (pods.length > 0) {
    why = `its pods (${ready.length}/${pods.length} ready) have not loaded the route`;
    next = `Restart the ingress gateway ${svcNs}/${svcName} so its pods load the Gateway's configuration: ${restart}${secretStep}; ${probed}`;
  } else {
    why = `no pod matching ${selectorText(selector)} was seen in ${svcNs}`;
    next = `kubectl get deploy,pods -n ${svcNs} -l ${selectorText(selector)}: start the ingress gateway ${svcNs}/${svcName} if no pod runs; if its pods run, restart them so they load the Gateway's configuration: ${restart}${secretStep}; ${probed}`;
  }
  return [
    finding('INGRESS_NOT_CONFIGURED', {
      subject: svcRef,
      title: `Knative is waiting for the ingress gateway ${svcNs}/${svcName} (${why}): ${names} stays "${first.condition.message}" while its revision is ready`,
      evidence,
      next,
      component: componentOf(first.ksvc.metadata.labels),
    }),
  ];
}
