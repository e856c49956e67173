/**
 * What an LLM runtime's failure is measured against: the node a pod runs on and the GPUs its
 * container is allocated (`nvidia.com/gpu`, also a MIG profile `nvidia.com/mig-…`, or AMD's
 * `amd.com/gpu`; "0" when it asks for none).
 */
import type { V1Pod } from '@kubernetes/client-node';

const GPU_RESOURCE = /^(?:nvidia\.com\/(?:gpu|mig-[\w.-]+)|amd\.com\/gpu)$/;

export function gpuScopeOf(pod: V1Pod, container: string | undefined): { node?: string; gpus: string } {
  const spec = pod.spec?.containers?.find((c) => c.name === container);
  const limits = { ...(spec?.resources?.requests ?? {}), ...(spec?.resources?.limits ?? {}) };
  const gpus = Object.entries(limits)
    .filter(([k]) => GPU_RESOURCE.test(k))
    .reduce((n, [, v]) => n + (Number.parseInt(String(v), 10) || 0), 0);
  return { ...(pod.spec?.nodeName ? { node: pod.spec.nodeName } : {}), gpus: String(gpus) };
}
