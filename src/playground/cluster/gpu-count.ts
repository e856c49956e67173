/** The GPUs an InferenceService's predictor asks for: its `nvidia.com/gpu` limit (else request); 0 when none. */
import { componentsOf } from '../../kube/inference-service-view.js';
import type { InferenceServiceObject } from '../../kube/schemas.js';
import type { KubeObject } from './related-objects.js';

type Resources = { limits?: Record<string, unknown>; requests?: Record<string, unknown> };

export function gpuCount(isvc: KubeObject): number {
  const main = componentsOf(isvc as unknown as InferenceServiceObject).find((c) => c.name === 'predictor' && !c.canary);
  if (!main) return 0;
  let node: unknown = isvc;
  for (const key of main.modelPath) node = (node as Record<string, unknown> | undefined)?.[key];
  const resources = (node as { resources?: Resources } | undefined)?.resources;
  const count = Number(resources?.limits?.['nvidia.com/gpu'] ?? resources?.requests?.['nvidia.com/gpu'] ?? 0);
  return Number.isFinite(count) ? count : 0;
}
