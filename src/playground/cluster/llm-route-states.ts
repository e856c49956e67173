/**
 * An LLMInferenceService behind a Gateway that refuses HTTPRoute timeouts (GKE's gke-l7-* classes):
 * the managed route carries the router preset's timeouts and is refused (the captured state); an own
 * route without timeouts, named in `spec.router.route.http.refs`, is accepted, and then the pool is
 * accepted on the gateway and every condition is True. Also the actions' spec edits.
 */
import type { ObjectStore } from '../../simulator/simulator.js';
import type { KubeObject } from './related-objects.js';
import { withConditions } from './workload-states.js';

const ROUTE = 'gateway.networking.k8s.io/v1';
const POOL_VERSIONS = ['inference.networking.k8s.io/v1', 'inference.networking.x-k8s.io/v1alpha2'];

type ParentRef = { group?: string; kind?: string; name: string; namespace?: string };
type Route = KubeObject & { spec?: { parentRefs?: ParentRef[]; rules?: Array<Record<string, unknown>> } };

/** The route names in `spec.router.route.http.refs` (the user's own routes). */
export function ownRouteNames(llmisvc: KubeObject): string[] {
  const refs = (llmisvc.spec as { router?: { route?: { http?: { refs?: Array<{ name?: string }> } } } } | undefined)
    ?.router?.route?.http?.refs;
  return (refs ?? []).flatMap((r) => (r.name ? [r.name] : []));
}

/** The managed route's name (KServe's `<name>-kserve-route`) and the own one the fix creates. */
export const managedRouteName = (name: string) => `${name}-kserve-route`;
export const ownRouteName = (name: string) => `${name}-route`;

/** The own route: the managed one's rules without their timeouts, no managed labels. */
export function ownRouteFrom(store: ObjectStore, namespace: string, name: string): KubeObject | undefined {
  const managed = store.get(ROUTE, 'HTTPRoute', namespace, managedRouteName(name)) as Route | undefined;
  if (!managed?.spec) return undefined;
  const rules = (managed.spec.rules ?? []).map((r) => {
    const { timeouts: _timeouts, ...rest } = r;
    return rest;
  });
  return {
    apiVersion: ROUTE,
    kind: 'HTTPRoute',
    metadata: { name: ownRouteName(name), namespace },
    spec: { parentRefs: managed.spec.parentRefs ?? [], rules },
  } as KubeObject;
}

/** The gateway's controller accepts the own routes; the pool is accepted on their gateways; all conditions True. */
export function writeOwnRouteAccepted(store: ObjectStore, llmisvc: KubeObject, controllerName: string): void {
  const { namespace = '', name } = llmisvc.metadata;
  const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const accepted = (message?: string) => [
    { type: 'Accepted', status: 'True', reason: 'Accepted', ...(message ? { message } : {}), lastTransitionTime: at },
    { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', lastTransitionTime: at },
  ];
  const parents: ParentRef[] = [];
  for (const routeName of ownRouteNames(llmisvc)) {
    const route = store.get(ROUTE, 'HTTPRoute', namespace, routeName) as Route | undefined;
    if (!route) continue;
    const refs = route.spec?.parentRefs ?? [];
    parents.push(...refs);
    store.upsert({
      ...route,
      status: { parents: refs.map((parentRef) => ({ controllerName, parentRef, conditions: accepted() })) },
    });
  }
  store.delete(ROUTE, 'HTTPRoute', namespace, managedRouteName(name));
  for (const version of POOL_VERSIONS) {
    for (const pool of store.list(version, 'InferencePool', namespace)) {
      const labels = (pool.metadata.labels ?? {}) as Record<string, string>;
      if (labels['app.kubernetes.io/name'] !== name) continue;
      store.upsert({
        ...pool,
        status: {
          parents: parents.map((parentRef) => ({
            parentRef,
            conditions: accepted(`InferencePool has been accepted by controller ${controllerName}`),
          })),
        },
      });
    }
  }
  const status = {
    ...((llmisvc.status ?? {}) as Record<string, unknown>),
    observedGeneration: llmisvc.metadata.generation,
  };
  store.upsert(withConditions({ ...llmisvc, status }, () => ({ status: 'True' })));
}
