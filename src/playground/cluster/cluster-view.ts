/**
 * What the page's cluster panel shows: the InferenceServices and LLMInferenceServices with their
 * Ready condition, and one
 * of them as YAML (as `kubectl get -o yaml` prints it, without managedFields and the
 * last-applied-configuration annotation).
 */
import { stringify } from 'yaml';
import type { ObjectStore } from '../../simulator/simulator.js';
import type { IsvcRow } from './panel-types.js';
import { allIsvcs, allLlmIsvcs, findIsvc, findLlmIsvc } from './related-objects.js';

export type { IsvcRow } from './panel-types.js';

export function isvcRows(store: ObjectStore): IsvcRow[] {
  return [...allIsvcs(store), ...allLlmIsvcs(store)].map((isvc) => {
    const status = (isvc.status ?? {}) as { conditions?: Array<Record<string, string>>; observedGeneration?: number };
    const ready = status.conditions?.find((c) => c.type === 'Ready');
    return {
      kind: isvc.kind === 'LLMInferenceService' ? 'LLMInferenceService' : 'InferenceService',
      namespace: isvc.metadata.namespace ?? '',
      name: isvc.metadata.name,
      apiVersion: isvc.apiVersion,
      ready: ready?.status === 'True' || ready?.status === 'False' ? ready.status : 'Unknown',
      ...(ready?.reason ? { reason: ready.reason } : {}),
      ...(ready?.message ? { message: ready.message } : {}),
      ...(ready?.lastTransitionTime ? { since: ready.lastTransitionTime } : {}),
      ...(isvc.metadata.generation !== undefined ? { generation: Number(isvc.metadata.generation) } : {}),
      ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
    };
  });
}

export function isvcYaml(store: ObjectStore, namespace: string, name: string): string | null {
  const isvc = findIsvc(store, namespace, name) ?? findLlmIsvc(store, namespace, name);
  if (!isvc) return null;
  const copy = structuredClone(isvc) as Record<string, any>;
  delete copy.metadata.managedFields;
  const annotations = copy.metadata.annotations as Record<string, string> | undefined;
  if (annotations) {
    delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
    if (Object.keys(annotations).length === 0) delete copy.metadata.annotations;
  }
  return stringify(copy, { lineWidth: 0 });
}
