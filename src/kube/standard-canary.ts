/**
 * The Standard-mode (RawDeployment) canary of KServe 0.20, read from the
 * InferenceService alone (pure). The spec declares it as a list, `spec.canary[]`, each entry a
 * `predictor` (whose `name` is required) and a `trafficPercent`; the controller makes one Deployment
 * and Service per entry named `<isvc>-<predictor.name>-predictor` (the stable one is
 * `<isvc>-predictor`, or `<isvc>-<spec.predictor.name>-predictor` once a canary was promoted by
 * name), reports each in `status.canaryStatuses[]` (`name`, `ready` = the Deployment has an
 * available replica, `trafficPercent`, `modelStatus`) and rolls them up in the condition
 * `CanaryPredictorReady` (`AllCanariesReady` / `CanariesNotReady`), which is not part of Ready.
 * The HTTPRoute `<isvc>-predictor` weights the stable Service at 100 minus the ready canaries'
 * shares and leaves a canary that is not ready out of it.
 */
import type { KubeObject } from './schemas.js';
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

export interface StandardCanary {
  /** Its index in spec.canary. */
  index: number;
  /** spec.canary[i].predictor.name */
  name: string;
  trafficPercent: number;
  predictor: Obj;
  /** The Deployment (and Service) the controller makes for it. */
  deployment: string;
  /** Its entry in status.canaryStatuses (undefined: the controller has not reported it yet). */
  status?: { ready: boolean; trafficPercent?: number; modelStatus?: Obj };
}

/** `<isvc>-<name>-predictor`, or `<isvc>-predictor` without a name (KServe's PredictorServiceName). */
export function predictorDeploymentName(isvc: string, predictorName?: string): string {
  return predictorName ? `${isvc}-${predictorName}-predictor` : `${isvc}-predictor`;
}

/** The stable predictor's Deployment. */
export function stableDeploymentName(isvc: KubeObject): string {
  const predictor = isObj(isvc.spec) && isObj(isvc.spec.predictor) ? isvc.spec.predictor : {};
  return predictorDeploymentName(
    isvc.metadata.name,
    typeof predictor.name === 'string' && predictor.name ? predictor.name : undefined,
  );
}

/** The canaries `spec.canary[]` declares (empty: none, or not a Standard-mode canary). */
export function standardCanaries(isvc: KubeObject): StandardCanary[] {
  const spec = isObj(isvc.spec) ? isvc.spec : {};
  if (!Array.isArray(spec.canary)) return [];
  const statuses = (isObj(isvc.status) && Array.isArray(isvc.status.canaryStatuses) ? isvc.status.canaryStatuses : [])
    .filter(isObj)
    .filter((s) => typeof s.name === 'string');
  return spec.canary.flatMap((entry, index) => {
    if (!isObj(entry) || !isObj(entry.predictor)) return [];
    const name = typeof entry.predictor.name === 'string' ? entry.predictor.name : '';
    const s = statuses.find((x) => x.name === name);
    return [
      {
        index,
        name,
        trafficPercent: typeof entry.trafficPercent === 'number' ? entry.trafficPercent : 0,
        predictor: entry.predictor,
        deployment: predictorDeploymentName(isvc.metadata.name, name || undefined),
        ...(s
          ? {
              status: {
                ready: s.ready === true,
                ...(typeof s.trafficPercent === 'number' ? { trafficPercent: s.trafficPercent } : {}),
                ...(isObj(s.modelStatus) ? { modelStatus: s.modelStatus } : {}),
              },
            }
          : {}),
      },
    ];
  });
}

/** The weights an HTTPRoute gives each backend Service, per rule (the first rule with backends). */
export function routeWeights(route: KubeObject): Array<{ service: string; weight: number }> {
  const rules = isObj(route.spec) && Array.isArray(route.spec.rules) ? route.spec.rules.filter(isObj) : [];
  const rule = rules.find((r) => Array.isArray(r.backendRefs) && r.backendRefs.length > 0);
  const refs = (rule?.backendRefs as unknown[] | undefined)?.filter(isObj) ?? [];
  // Gateway API: a backendRef without a weight weighs 1
  return refs.map((r) => ({ service: String(r.name ?? ''), weight: typeof r.weight === 'number' ? r.weight : 1 }));
}

/** Each backend's share of the route's requests, in percent (rounded). */
export function routeShares(route: KubeObject): Array<{ service: string; percent: number }> {
  const weights = routeWeights(route);
  const total = weights.reduce((n, w) => n + w.weight, 0);
  return weights.map((w) => ({ service: w.service, percent: total > 0 ? Math.round((w.weight * 100) / total) : 0 }));
}
