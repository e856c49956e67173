/**
 * Which container of a pod runs the model server: KServe's `kserve-container`, KFServing's
 * `kfserving-container`, Knative's default `user-container`, else the first container that is not
 * one of the sidecars KServe, Knative and Istio add (queue-proxy, istio-proxy, agent, modelcar).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { SIDECAR_CONTAINERS, STORAGE_INITIALIZER } from '../kube/pod-status.js';

const MODEL_CONTAINERS = ['kserve-container', 'kfserving-container', 'user-container'];
const OTHER_SIDECARS = new Set(['agent', 'modelcar', 'batcher', 'logger']);

export function modelServerContainer(pod: V1Pod): string | undefined {
  const names = (pod.spec?.containers ?? []).map((c) => c.name);
  return (
    names.find((n) => MODEL_CONTAINERS.includes(n)) ??
    names.find((n) => !SIDECAR_CONTAINERS.has(n) && !OTHER_SIDECARS.has(n) && n !== STORAGE_INITIALIZER)
  );
}
