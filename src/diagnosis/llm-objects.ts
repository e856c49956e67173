/**
 * What an LLMInferenceService creates, read the way its controller names and labels it (KServe
 * 0.16-0.20, its llmisvc controller): workload Deployments `NAME-kserve` /
 * `NAME-kserve-prefill`, LeaderWorkerSets `NAME-kserve-mn` / `NAME-kserve-mn-prefill`, the
 * scheduler (endpoint picker, EPP) Deployment `NAME-kserve-router-scheduler`, the InferencePool
 * `NAME-inference-pool` (or spec.router.scheduler.pool.ref), the managed HTTPRoute
 * `NAME-kserve-route` (or spec.router.route.http.refs). Every workload and scheduler pod and
 * Deployment carries `app.kubernetes.io/part-of=llminferenceservice,app.kubernetes.io/name=NAME`,
 * so one labelled list of each answers for all of them.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterReader } from '../kube/cluster-reader.js';
import type { Condition, KubeObject } from '../kube/schemas.js';
import { KINDS, llmInferenceServiceSelector } from '../kube/resources.js';
import type { DiagnosisContext } from './playbook.js';
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const objAt = (o: unknown, ...path: string[]): Obj | undefined => {
  let cur: unknown = o;
  for (const p of path) cur = isObj(cur) ? cur[p] : undefined;
  return isObj(cur) ? cur : undefined;
};
export const arrAt = (o: unknown, ...path: string[]): unknown[] => {
  let cur: unknown = o;
  for (const p of path) cur = isObj(cur) ? cur[p] : undefined;
  return Array.isArray(cur) ? cur : [];
};

/** The llmisvc controller manager (its own Deployment since 0.17; inside KServe's before). */
export const LLM_CONTROLLER_SELECTOR = 'control-plane in (llmisvc-controller-manager,kserve-controller-manager)';

export interface NamedRef {
  name: string;
  namespace: string;
}

/** The parts of the spec the diagnosis goes by. */
export interface LlmSpecView {
  multiNode: boolean;
  prefill: boolean;
  prefillMultiNode: boolean;
  replicas: number;
  scheduler: boolean;
  /** spec.router.gateway.refs (namespace defaulted to the service's). */
  gatewayRefs: NamedRef[];
  /** The managed HTTPRoute is asked for (spec.router.route present without http.refs). */
  managedRoute: boolean;
  routeRefs: string[];
  poolName: string;
  baseRefs: string[];
}

export function llmSpecOf(ctx: DiagnosisContext): LlmSpecView {
  const spec = ctx.target.isvc.spec ?? {};
  const router = objAt(spec, 'router');
  const route = objAt(router, 'route');
  const routeRefs = arrAt(route, 'http', 'refs')
    .map((r) => str(objAt(r)?.name))
    .filter((n): n is string => Boolean(n));
  const ns = ctx.target.namespace;
  const poolRef = str(objAt(router, 'scheduler', 'pool', 'ref')?.name);
  const replicas = spec.replicas;
  return {
    multiNode: objAt(spec, 'worker') !== undefined,
    prefill: objAt(spec, 'prefill') !== undefined,
    prefillMultiNode: objAt(spec, 'prefill', 'worker') !== undefined,
    replicas: typeof replicas === 'number' ? replicas : 1,
    scheduler: objAt(router, 'scheduler') !== undefined,
    gatewayRefs: arrAt(router, 'gateway', 'refs')
      .map((r) => ({ name: str(objAt(r)?.name) ?? '', namespace: str(objAt(r)?.namespace) ?? ns }))
      .filter((r) => r.name),
    managedRoute: route !== undefined && routeRefs.length === 0,
    routeRefs,
    poolName: poolRef ?? `${ctx.target.name}-inference-pool`,
    baseRefs: arrAt(spec, 'baseRefs')
      .map((r) => str(objAt(r)?.name))
      .filter((n): n is string => Boolean(n)),
  };
}

/** The service's workload and scheduler pods (one labelled list). */
export function llmPods(reader: ClusterReader, namespace: string, name: string): Promise<V1Pod[]> {
  return reader.pods(namespace, llmInferenceServiceSelector(name));
}

/** The service's Deployments: workloads and scheduler (one labelled list). */
export function llmDeployments(reader: ClusterReader, namespace: string, name: string): Promise<KubeObject[]> {
  return reader.listKind('Deployment', namespace, llmInferenceServiceSelector(name));
}

export function httpRoutes(reader: ClusterReader, namespace: string): Promise<KubeObject[]> {
  return reader.listKind('HTTPRoute', namespace);
}

/**
 * The namespace's InferencePools: the GA ones (inference.networking.k8s.io) where the cluster
 * serves them, the alpha ones otherwise (KServe creates both where both are served; one suffices).
 */
export async function inferencePools(reader: ClusterReader, namespace: string): Promise<KubeObject[]> {
  if (!(await reader.servesGroup(KINDS.InferencePool.group))) return reader.listKind('InferencePoolAlpha', namespace);
  return reader.listKind('InferencePool', namespace);
}

/** "Type=Status (Reason): message" */
export { formatCondition as conditionText } from '../kube/inference-service-view.js';

export function conditionsOf(o: { status?: unknown } | undefined): Condition[] {
  return arrAt(o?.status, 'conditions').filter((c): c is Condition => isObj(c) && typeof c.type === 'string');
}

/** Deployment replicas wanted and available. */
export function deploymentReplicas(d: KubeObject): { wanted: number; available: number } {
  const spec = d.spec ?? {};
  const status = (d.status ?? {}) as Obj;
  const wanted = typeof spec.replicas === 'number' ? spec.replicas : 1;
  const available = typeof status.availableReplicas === 'number' ? status.availableReplicas : 0;
  return { wanted, available };
}

export const LLM_KIND = 'LLMInferenceService';

/** PresetsCombined is False: the controller stopped before creating (or updating) anything. */
export function configsUnmerged(ctx: DiagnosisContext): boolean {
  const presets = conditionsOf(ctx.target.isvc).find((c) => c.type === 'PresetsCombined');
  return presets?.status === 'False' && presets.reason !== 'Stopped';
}
