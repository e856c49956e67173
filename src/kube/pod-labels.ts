/** What a pod's labels and name say about where it belongs (pure). */
import type { V1Pod } from '@kubernetes/client-node';

/** predictor / transformer / explainer, from KFServing's or KServe's label. */
export function componentOf(labels: Record<string, string> | undefined): string | undefined {
  return labels?.component ?? labels?.['serving.kserve.io/component'];
}

/**
 * What a pod runs as, within its service: its Knative revision, or in Standard mode the Deployment
 * of a named predictor (KServe 0.20's canary `<isvc>-<predictor.name>-predictor`, whose pods KServe
 * labels app=isvc.<deployment>); undefined for the plain `<isvc>-predictor`, as before canaries.
 */
export function revisionOfPod(pod: V1Pod): string | undefined {
  return knativeRevisionOfPod(pod) ?? namedPredictorOfPod(pod);
}

export function knativeRevisionOfPod(pod: V1Pod): string | undefined {
  return pod.metadata?.labels?.['serving.knative.dev/revision'];
}

function namedPredictorOfPod(pod: V1Pod): string | undefined {
  const labels = pod.metadata?.labels ?? {};
  const isvc = labels['serving.kserve.io/inferenceservice'];
  const app = labels.app;
  if (!isvc || !app || app === `isvc.${isvc}-predictor`) return undefined;
  return app.startsWith(`isvc.${isvc}-`) && app.endsWith('-predictor') ? app.slice('isvc.'.length) : undefined;
}

/** Name prefixes of everything an InferenceService creates (pods, replicasets, revisions, services). */
export function ownedNamePrefixes(isvcName: string): string[] {
  return ['predictor', 'transformer', 'explainer'].map((c) => `${isvcName}-${c}`);
}

/** For installs whose pods carry no InferenceService label: the pods named after its components. */
export function podsNamedFor(pods: V1Pod[], isvcName: string): V1Pod[] {
  const prefixes = ownedNamePrefixes(isvcName);
  return pods.filter((p) => {
    const labels = p.metadata?.labels ?? {};
    const owner = labels['serving.knative.dev/service'] ?? labels.app ?? p.metadata?.name ?? '';
    return prefixes.some((prefix) => owner.startsWith(prefix)) || labels.model === isvcName;
  });
}
