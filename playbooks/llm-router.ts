/**
 * The router of an LLMInferenceService: its HTTPRoute(s) (the managed `NAME-kserve-route` or
 * spec.router.route.http.refs), the Gateways they attach to (their parentRefs and
 * spec.router.gateway.refs: Accepted, Programmed), the route's own parent status (Accepted,
 * ResolvedRefs, as the Gateway's controller writes it), the InferencePool (`NAME-inference-pool`
 * or spec.router.scheduler.pool.ref; accepted by a Gateway's controller) and the endpoint picker
 * (EPP) Deployment `NAME-kserve-router-scheduler` with its pods (a crashing EPP's log is read).
 * The objects decide, not the condition text: a Gateway reported missing (RefsInvalid) that exists
 * and is Programmed, or a pool reported WaitingForGateway that a Gateway has accepted, is said as
 * the controller's misreading, with what the objects show.
 *
 * RBAC: list httproutes / get gateways (gateway.networking.k8s.io), list inferencepools
 * (inference.networking.k8s.io, inference.networking.x-k8s.io), list deployments, list pods, get pods/log.
 * Emits: LLM_GATEWAY_NOT_READY, LLM_ROUTE_NOT_ACCEPTED, LLM_INFERENCE_POOL_NOT_READY, LLMISVC_NOT_READY.
 */
import { readableLogLine } from '../src/logs/readable-log-line.js';
import type { V1Pod } from '@kubernetes/client-node';
import {
  LLM_KIND,
  arrAt,
  conditionText,
  conditionsOf,
  configsUnmerged,
  deploymentReplicas,
  httpRoutes,
  inferencePools,
  llmDeployments,
  llmPods,
  llmSpecOf,
  objAt,
  type NamedRef,
} from '../src/diagnosis/llm-objects.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { finding } from '../src/findings/finding.js';
import type { Finding } from '../src/findings/types.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { refOf } from '../src/kube/inference-service-view.js';
import type { Condition, KubeObject } from '../src/kube/schemas.js';
import { splitLogLines } from '../src/logs/log-excerpt.js';

const SCHEDULER = 'llminferenceservice-router-scheduler';

export const llmRouter: Playbook = {
  id: 'llm-router',
  kind: 'llmisvc',
  title: "The LLMInferenceService's gateway, route, InferencePool and endpoint picker",
  emits: ['LLM_GATEWAY_NOT_READY', 'LLM_ROUTE_NOT_ACCEPTED', 'LLM_INFERENCE_POOL_NOT_READY', 'LLMISVC_NOT_READY'],
  firstWave: (reader, target) => [httpRoutes(reader, target.namespace), inferencePools(reader, target.namespace)],
  async run(ctx) {
    const { namespace, name } = ctx.target;
    if (!objAt(ctx.target.isvc.spec, 'router') || configsUnmerged(ctx)) return [];
    const spec = llmSpecOf(ctx);
    const [routes, pools, deployments, pods] = await Promise.all([
      httpRoutes(ctx.reader, namespace).catch(forbiddenAsEmpty),
      inferencePools(ctx.reader, namespace).catch(forbiddenAsEmpty),
      llmDeployments(ctx.reader, namespace, name).catch(forbiddenAsEmpty),
      llmPods(ctx.reader, namespace, name).catch(forbiddenAsEmpty),
    ]);
    const routeNames = [...(spec.managedRoute ? [`${name}-kserve-route`] : []), ...spec.routeRefs];
    const own = routes.filter((r) => routeNames.includes(r.metadata.name));
    const gatewayRefs = uniqueRefs([...own.flatMap((r) => parentGateways(r, namespace)), ...spec.gatewayRefs]);
    // the second wave: the gateways the routes name, and the endpoint picker's log, together
    const epp = spec.scheduler
      ? deployments.find((d) => d.metadata.labels?.['app.kubernetes.io/component'] === SCHEDULER)
      : undefined;
    const eppPods = pods.filter((p) => p.metadata?.labels?.['app.kubernetes.io/component'] === SCHEDULER);
    const [gateways, eppProblem] = await Promise.all([
      Promise.all(
        gatewayRefs.map(async (ref) => ({
          ref,
          gateway: await ctx.reader.readKind('Gateway', ref.namespace, ref.name).catch(forbiddenAsUndefined),
        })),
      ),
      epp ? eppFinding(ctx, epp, eppPods) : null,
    ]);
    const conditions = new Map(conditionsOf(ctx.target.isvc).map((c) => [c.type, c]));
    const findings: Finding[] = [];
    for (const { ref, gateway } of gateways) {
      if (gateway === undefined) continue; // not readable: BOT_FORBIDDEN says so
      const f = gatewayFinding(ctx, ref, gateway, conditions);
      if (f) findings.push(f);
    }
    const gatewaysFine = findings.length === 0;
    for (const r of own) {
      const f = routeFinding(ctx, r, gatewaysFine);
      if (f) findings.push(f);
    }
    if (spec.scheduler) {
      const pool = pools.find((p) => p.metadata.name === spec.poolName);
      const f = poolFinding(ctx, spec.poolName, pool, conditions.get('InferencePoolReady'), gatewayRefs);
      if (f) findings.push(f);
      if (eppProblem) findings.push(eppProblem);
    }
    return findings;
  },
};

const forbiddenAsEmpty = (error: unknown): KubeObject[] & V1Pod[] => {
  if (error instanceof ForbiddenError) return [];
  throw error;
};
const forbiddenAsUndefined = (error: unknown): undefined => {
  if (error instanceof ForbiddenError) return undefined;
  throw error;
};

function uniqueRefs(refs: NamedRef[]): NamedRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const key = `${r.namespace}/${r.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function parentGateways(route: KubeObject, namespace: string): NamedRef[] {
  return arrAt(route.spec, 'parentRefs')
    .map((p) => objAt(p) ?? {})
    .filter((p) => (p.kind ?? 'Gateway') === 'Gateway' && typeof p.name === 'string')
    .map((p) => ({ name: String(p.name), namespace: typeof p.namespace === 'string' ? p.namespace : namespace }));
}

const cond = (o: unknown, type: string): Condition | undefined =>
  arrAt(o, 'conditions').find((c): c is Condition => objAt(c)?.type === type);

function gatewayFinding(
  ctx: DiagnosisContext,
  ref: NamedRef,
  gateway: KubeObject | null,
  conditions: Map<string, Condition>,
): Finding | null {
  const { namespace, name } = ctx.target;
  const gwRef = refOf('Gateway', ref.namespace, ref.name);
  const subject = refOf(LLM_KIND, namespace, name);
  const refsInvalid = [...conditions.values()].find((c) => c.reason === 'RefsInvalid' && c.status === 'False');
  if (!gateway)
    return finding('LLM_GATEWAY_NOT_READY', {
      subject: gwRef,
      title: `Gateway ${ref.namespace}/${ref.name}, which the service routes through, does not exist`,
      evidence: [
        { kind: 'field', ref: gwRef, text: 'not found' },
        ...(refsInvalid ? [{ kind: 'condition' as const, ref: subject, text: conditionText(refsInvalid) }] : []),
      ],
      next: `kubectl get gateways -A: create Gateway ${ref.name} in namespace ${ref.namespace}, or point spec.router.gateway.refs of llminferenceservice ${name} -n ${namespace} (or the ingress gateway of inferenceservice-config) at one that exists`,
    });
  const status = gateway.status ?? {};
  const accepted = cond(status, 'Accepted');
  const programmed = cond(status, 'Programmed');
  const className = typeof gateway.spec?.gatewayClassName === 'string' ? gateway.spec.gatewayClassName : '?';
  if (accepted?.status === 'True' && programmed?.status === 'True') {
    // the objects say the gateway is fine: a condition that says it is missing is the controller's misreading
    if (refsInvalid?.message?.includes(ref.name))
      return finding('LLMISVC_NOT_READY', {
        subject,
        title: `${refsInvalid.type} says Gateway ${ref.namespace}/${ref.name} does not exist, but it exists and is Programmed: the llmisvc controller's cached view is wrong`,
        evidence: [
          { kind: 'condition', ref: subject, text: conditionText(refsInvalid) },
          { kind: 'condition', ref: gwRef, text: conditionText(programmed) },
        ],
        next: `kubectl rollout restart deploy/llmisvc-controller-manager -n kserve (its cache missed Gateway ${ref.namespace}/${ref.name}); if it stays, upgrade KServe (the cache lookup was fixed after 0.16) and check that the controller may list gateways.gateway.networking.k8s.io`,
      });
    return null;
  }
  const bad = [accepted, programmed].find((c) => c && c.status !== 'True');
  const noAddress =
    bad?.reason === 'AddressNotAssigned' || /address pending|failed to assign/i.test(bad?.message ?? '');
  const noController =
    !accepted || (accepted.status === 'Unknown' && /Pending|Waiting/i.test(`${accepted.reason} ${accepted.message}`));
  return finding('LLM_GATEWAY_NOT_READY', {
    subject: gwRef,
    title: noController
      ? `Gateway ${ref.namespace}/${ref.name} has not been accepted by any controller: nothing implements GatewayClass ${className}`
      : `Gateway ${ref.namespace}/${ref.name} is not ready: ${bad ? conditionText(bad) : 'Programmed is not True'}`,
    evidence: [
      { kind: 'field', ref: gwRef, text: `gatewayClassName: ${className}` },
      ...[accepted, programmed]
        .filter((c): c is Condition => Boolean(c))
        .map((c) => ({ kind: 'condition' as const, ref: gwRef, text: conditionText(c) })),
    ],
    next: noAddress
      ? `kubectl get svc -n ${ref.namespace} -l gateway.networking.k8s.io/gateway-name=${ref.name}: the Gateway's LoadBalancer Service has no external address (${bad?.reason}); install a LoadBalancer implementation (MetalLB, or cloud-provider-kind on kind) or set the Gateway's Service type to NodePort (spec.infrastructure / the implementation's parameters), then the URL of llminferenceservice ${name} answers`
      : noController
        ? `kubectl get gatewayclass ${className}: install the Gateway API implementation whose controllerName it names (or set gatewayClassName of Gateway ${ref.namespace}/${ref.name} to a class that has one)`
        : `kubectl describe gateway ${ref.name} -n ${ref.namespace}: fix what ${bad?.type ?? 'Programmed'} says (${bad?.reason ?? 'not programmed'}${bad?.message ? `: ${bad.message}` : ''})`,
  });
}

function routeFinding(ctx: DiagnosisContext, route: KubeObject, gatewaysFine: boolean): Finding | null {
  const { namespace, name } = ctx.target;
  const ref = refOf('HTTPRoute', route.metadata.namespace ?? namespace, route.metadata.name);
  const parents = arrAt(route.status, 'parents');
  const backends = arrAt(route.spec, 'rules').flatMap((r) => arrAt(r, 'backendRefs'));
  for (const p of parents) {
    const parentName = String(objAt(p, 'parentRef')?.name ?? '?');
    const bad = [cond(p, 'Accepted'), cond(p, 'ResolvedRefs')].find((c) => c && c.status === 'False');
    if (!bad) continue;
    return finding('LLM_ROUTE_NOT_ACCEPTED', {
      subject: ref,
      title: `HTTPRoute ${route.metadata.name} is not ${bad.type === 'Accepted' ? 'accepted' : 'resolved'} by Gateway ${parentName}: ${bad.reason ?? ''}${bad.message ? `: ${bad.message}` : ''}`,
      evidence: [
        {
          kind: 'condition',
          ref,
          text: `parent ${parentName} (${String(objAt(p)?.controllerName ?? 'controller unknown')}): ${conditionText(bad)}`,
        },
        ...backends.slice(0, 2).map((b) => ({ kind: 'field' as const, ref, text: `backendRef: ${backendText(b)}` })),
      ],
      next: routeFix(bad, parentName, route, name, namespace),
    });
  }
  if (backends.length === 0)
    return finding('LLM_ROUTE_NOT_ACCEPTED', {
      subject: ref,
      title: `HTTPRoute ${route.metadata.name} has no backendRefs: requests through the gateway reach no InferencePool or Service`,
      evidence: [{ kind: 'field', ref, text: 'spec.rules[*].backendRefs: none' }],
      next: `kubectl get httproute ${route.metadata.name} -n ${namespace} -o yaml: the router route template (LLMInferenceServiceConfig kserve-config-llm-router-route) rendered no backendRefs; set spec.router.route.http.refs of llminferenceservice ${name} to a route whose rules name the InferencePool, or upgrade KServe`,
    });
  if (parents.length === 0 && gatewaysFine)
    return finding('LLM_ROUTE_NOT_ACCEPTED', {
      subject: ref,
      title: `No Gateway controller has written the status of HTTPRoute ${route.metadata.name}: no Gateway took it`,
      evidence: [
        {
          kind: 'field',
          ref,
          text: `status.parents: none; parentRefs: ${
            parentGateways(route, namespace)
              .map((g) => `${g.namespace}/${g.name}`)
              .join(', ') || 'none'
          }`,
        },
      ],
      next: `kubectl get httproute ${route.metadata.name} -n ${namespace} -o yaml: check spec.parentRefs names a Gateway whose controller runs, and that its listener allows routes from namespace ${namespace}`,
    });
  return null;
}

function backendText(b: unknown): string {
  const o = objAt(b) ?? {};
  return `${String(o.group ?? '')}${o.group ? '/' : ''}${String(o.kind ?? 'Service')} ${String(o.name ?? '?')}`;
}

function routeFix(bad: Condition, parentName: string, route: KubeObject, name: string, namespace: string): string {
  const reason = bad.reason ?? '';
  const timeouts = arrAt(route.spec, 'rules').some((r) => objAt(r, 'timeouts') !== undefined);
  if (timeouts && (reason === 'UnsupportedValue' || /timeout/i.test(bad.message ?? '')))
    return `Gateway ${parentName}'s implementation refuses spec.rules[*].timeouts, which the managed HTTPRoute ${route.metadata.name} carries from the router route preset (the llmisvc router of KServe 0.19 and before ignores disableHTTPRouteTimeout): create an HTTPRoute without timeouts and set spec.router.route.http.refs of llminferenceservice ${name} -n ${namespace} to it, or upgrade KServe to a release whose LLMInferenceService router honours disableHTTPRouteTimeout`;
  if (reason === 'NotAllowedByListeners')
    return `kubectl edit gateway ${parentName}: set spec.listeners[*].allowedRoutes.namespaces.from to All (or a Selector matching namespace ${namespace}) so it admits HTTPRoute ${route.metadata.name}`;
  if (reason === 'InvalidKind' || reason === 'UnsupportedValue' || /InferencePool/.test(bad.message ?? ''))
    return `kubectl get gatewayclass: the controller of Gateway ${parentName} refuses what HTTPRoute ${route.metadata.name} asks (${reason}: ${bad.message ?? ''}); use a Gateway whose implementation supports it (InferencePool backends need the Inference Extension), or change the router config of llminferenceservice ${name} -n ${namespace}`;
  if (reason === 'BackendNotFound' || reason === 'RefNotPermitted')
    return `kubectl get inferencepools,services -n ${namespace}: create the backend HTTPRoute ${route.metadata.name} names (${bad.message ?? reason}), or a ReferenceGrant when it is in another namespace`;
  return `kubectl describe httproute ${route.metadata.name} -n ${namespace}: fix what Gateway ${parentName} says (${reason}${bad.message ? `: ${bad.message}` : ''})`;
}

function poolParents(pool: KubeObject): unknown[] {
  return [...arrAt(pool.status, 'parents'), ...arrAt(pool.status, 'parent')];
}

function poolFinding(
  ctx: DiagnosisContext,
  poolName: string,
  pool: KubeObject | undefined,
  condition: Condition | undefined,
  gatewayRefs: NamedRef[],
): Finding | null {
  const { namespace, name } = ctx.target;
  const subject = refOf(LLM_KIND, namespace, name);
  const ref = refOf('InferencePool', namespace, poolName);
  if (!pool)
    return condition?.status === 'False' || !condition
      ? finding('LLM_INFERENCE_POOL_NOT_READY', {
          subject: ref,
          title: `InferencePool ${poolName} does not exist`,
          evidence: [
            { kind: 'field', ref, text: 'not found' },
            ...(condition ? [{ kind: 'condition' as const, ref: subject, text: conditionText(condition) }] : []),
          ],
          next: `kubectl logs -n kserve deploy/llmisvc-controller-manager | grep ${name}: the controller did not create InferencePool ${poolName} (or point spec.router.scheduler.pool.ref of llminferenceservice ${name} at one that exists)`,
        })
      : null;
  const parents = poolParents(pool);
  const accepted = parents.filter((p) => cond(p, 'Accepted')?.status === 'True');
  if (accepted.length > 0) {
    if (condition?.status !== 'False') return null;
    // WaitingForGateway while a Gateway's controller accepted the pool: the condition is wrong
    const by = accepted.map((p) => {
      const gw = objAt(p, 'parentRef');
      return `${String(gw?.namespace ?? namespace)}/${String(gw?.name ?? '?')}`;
    });
    return finding('LLMISVC_NOT_READY', {
      subject,
      title: `InferencePoolReady=False (${condition.reason}) although InferencePool ${poolName} is Accepted by Gateway ${by.join(', ')}: the llmisvc controller's readiness check does not count that gateway`,
      evidence: [
        { kind: 'condition', ref: subject, text: conditionText(condition) },
        ...accepted.map((p) => ({
          kind: 'condition' as const,
          ref,
          text: `parent ${by[accepted.indexOf(p)]}: ${conditionText(cond(p, 'Accepted') ?? { type: 'Accepted', status: 'True' })}`,
        })),
        ...(gatewayRefs.length
          ? []
          : [
              {
                kind: 'note' as const,
                ref: subject,
                text: 'no managed HTTPRoute: the controller finds gateways only through the routes it manages',
              },
            ]),
      ],
      next: `the data path works (the pool is accepted); the status is the controller's misreading (KServe 0.20 with spec.router.gateway.refs and no managed route: kserve/kserve#5986): add spec.router.route: {} to llminferenceservice ${name} -n ${namespace} so the controller resolves the gateway through its route, or upgrade to a release with the fix`,
    });
  }
  const rejected = parents.map((p) => cond(p, 'Accepted')).find((c) => c?.status === 'False');
  return finding('LLM_INFERENCE_POOL_NOT_READY', {
    subject: ref,
    title: rejected
      ? `InferencePool ${poolName} is not accepted: ${conditionText(rejected)}`
      : `No Gateway has accepted InferencePool ${poolName}`,
    evidence: [
      { kind: 'field', ref, text: `status.parents: ${parents.length ? parents.length : 'none'}` },
      ...(rejected ? [{ kind: 'condition' as const, ref, text: conditionText(rejected) }] : []),
      ...(condition ? [{ kind: 'condition' as const, ref: subject, text: conditionText(condition) }] : []),
    ],
    next: `kubectl get httproute -n ${namespace} -o yaml: a route of a Gateway whose implementation supports InferencePool must name ${poolName} in its backendRefs`,
  });
}

async function eppFinding(ctx: DiagnosisContext, epp: KubeObject, pods: V1Pod[]): Promise<Finding | null> {
  const { namespace, name } = ctx.target;
  const { wanted, available } = deploymentReplicas(epp);
  if (available >= wanted) return null;
  const ref = refOf('Deployment', namespace, epp.metadata.name);
  const crashing = pods.find((p) =>
    (p.status?.containerStatuses ?? []).some(
      (s) => s.state?.waiting?.reason === 'CrashLoopBackOff' || (s.restartCount ?? 0) > 0,
    ),
  );
  let line: string | undefined;
  let lineNumber = 0;
  let container: string | undefined;
  if (crashing) {
    const status =
      (crashing.status?.containerStatuses ?? []).find((s) => (s.restartCount ?? 0) > 0) ??
      crashing.status?.containerStatuses?.[0];
    container = status?.name;
    try {
      const text = container
        ? await ctx.reader.podLog(namespace, crashing.metadata?.name ?? '?', container, {
            previous: (status?.restartCount ?? 0) > 0,
          })
        : null;
      const lines = splitLogLines(text ?? '');
      const telling = lines.findIndex((l) =>
        /is forbidden|no matches for kind|could not find the requested resource/i.test(l),
      );
      lineNumber = (telling >= 0 ? telling : lines.findLastIndex((l) => /error|not found|failed/i.test(l))) + 1;
      line = lineNumber > 0 ? lines[lineNumber - 1] : undefined;
    } catch (error) {
      if (!(error instanceof ForbiddenError)) throw error;
    }
  }
  const podRef = refOf('Pod', namespace, crashing?.metadata?.name ?? '?');
  const forbidden = line
    ? /is forbidden: User \\?"([^"\\]+)\\?" cannot (\w+) resource \\?"([^"\\]+)\\?"(?: in API group \\?"([^"\\]*)\\?")?/.exec(
        line,
      )
    : null;
  const missingKind = line
    ? /no matches for kind \\?"(\w+)\\?"|could not find the requested resource|(\w+)\.[\w.]+ is not installed/.exec(
        line,
      )
    : null;
  const next = forbidden
    ? `kubectl create role/rolebinding in ${namespace}: let ${forbidden[1]} ${forbidden[2]} ${forbidden[3]}${forbidden[4] ? `.${forbidden[4]}` : ''} (the endpoint picker watches its pool's pods and InferencePool); KServe creates ${name}-epp-role for it, so check it was not removed or narrowed`
    : missingKind
      ? `install the CRD the endpoint picker needs (${missingKind[1] ?? missingKind[2] ?? 'the Inference Extension CRDs'}) at the version its image expects, or set the scheduler image of llminferenceservice ${name} -n ${namespace} to one matching the installed Inference Extension`
      : `kubectl logs -n ${namespace} deploy/${epp.metadata.name}: fix what the endpoint picker reports, in spec.router.scheduler.template of llminferenceservice ${name}`;
  return finding('LLM_INFERENCE_POOL_NOT_READY', {
    subject: ref,
    title: line
      ? `The endpoint picker ${epp.metadata.name} is not available (${available} of ${wanted}): ${readableLogLine(line.trim())}`
      : `The endpoint picker ${epp.metadata.name} has ${available} of ${wanted} replicas available`,
    evidence: [
      { kind: 'field', ref, text: `replicas ${wanted}, availableReplicas ${available}` },
      ...(line && container
        ? [
            {
              kind: 'log' as const,
              ref: podRef,
              container,
              excerpt: [line],
              lineNumbers: [lineNumber],
              truncated: true,
            },
          ]
        : []),
    ],
    next,
  });
}
