/**
 * What the LLMInferenceService controller, the Deployment controller and the kubelet would write for
 * an LLMInferenceService whose vLLM engine starts: every condition True, the workload Deployment
 * available, its pods running and ready, and the engine's log saying it serves with the max model
 * len it was given (the previous instance's log, the crash, gone with the restart count). Also how
 * a max model len is read from the vLLM container's args.
 */
import type { ObjectStore } from '../../simulator/simulator.js';
import type { KubeObject } from './related-objects.js';
import type { LogMap } from './workload-states.js';
import { deleteWarnings, healthyPod, withConditions } from './workload-states.js';

type Obj = Record<string, unknown>;
interface Container {
  name?: string;
  args?: unknown[];
}
interface LlmStatus extends Obj {
  workloads?: { primary?: { readyReplicas?: number } };
}
const containersOf = (spec: unknown): Container[] =>
  ((spec as { containers?: Container[] } | undefined)?.containers ?? []).filter((c) => typeof c === 'object');

/** Workload objects (the vLLM Deployments and pods, not the router's) of an LLMInferenceService, as KServe labels them. */
export function llmWorkloadObjectsOf(store: ObjectStore, namespace: string, name: string): KubeObject[] {
  const ours = (o: KubeObject) => {
    const labels = (o.metadata.labels ?? {}) as Record<string, string>;
    return (
      labels['app.kubernetes.io/name'] === name &&
      labels['app.kubernetes.io/part-of'] === 'llminferenceservice' &&
      labels['kserve.io/component'] === 'workload'
    );
  };
  return [...store.list('apps/v1', 'Deployment', namespace), ...store.list('v1', 'Pod', namespace)].filter(ours);
}

export function writeLlmHealthy(store: ObjectStore, logs: LogMap, llmisvc: KubeObject, maxModelLen: number): void {
  const { namespace = '', name } = llmisvc.metadata;
  for (const object of llmWorkloadObjectsOf(store, namespace, name)) {
    if (object.kind === 'Pod') {
      store.upsert(healthyPod(object, undefined));
      deleteWarnings(store, namespace, object.metadata.name);
      for (const key of [...logs.keys()])
        if (key.startsWith(`${namespace}/${object.metadata.name}/`) && key.endsWith('#previous')) logs.delete(key);
      for (const c of containersOf(object.spec))
        logs.set(`${namespace}/${object.metadata.name}/${c.name}`, servingLog(maxModelLen));
      continue;
    }
    store.upsert(availableDeployment(object));
  }
  const status = structuredClone((llmisvc.status ?? {}) as LlmStatus);
  status.observedGeneration = llmisvc.metadata.generation;
  const primary = status.workloads?.primary;
  if (primary) primary.readyReplicas = Number((llmisvc.spec as { replicas?: number } | undefined)?.replicas ?? 1);
  store.upsert(withConditions({ ...llmisvc, status }, () => ({ status: 'True' })));
}

function servingLog(maxModelLen: number): string {
  const at = new Date().toISOString().slice(5, 19).replace('T', ' ');
  return [
    `(APIServer pid=1) INFO ${at} [__init__.py:1750] Using max model len ${maxModelLen}`,
    `(APIServer pid=1) INFO ${at} [api_server.py:1818] Starting vLLM API server 0 on http://0.0.0.0:8000`,
    `(APIServer pid=1) INFO:     Application startup complete.`,
    '',
  ].join('\n');
}

/** `--max-model-len N` or `--max-model-len=N` in the LLMInferenceService's main container args. */
export function maxModelLenArg(llmisvc: KubeObject): number | undefined {
  const containers = containersOf((llmisvc.spec as { template?: unknown } | undefined)?.template);
  const args = (containers.find((c) => c.name === 'main') ?? containers[0])?.args ?? [];
  for (const [i, arg] of args.entries()) {
    const text = String(arg);
    const value =
      text === '--max-model-len' ? args[i + 1] : text.startsWith('--max-model-len=') ? text.slice(16) : undefined;
    if (value !== undefined && Number.isFinite(Number(value))) return Number(value);
  }
  return undefined;
}

/** A Deployment whose replicas are all available (what the Deployment controller writes once its pods are ready). */
export function availableDeployment(object: KubeObject): KubeObject {
  const replicas = Number((object.spec as { replicas?: number } | undefined)?.replicas ?? 1);
  const status: Obj = { ...(object.status as Obj), availableReplicas: replicas, readyReplicas: replicas };
  delete status.unavailableReplicas;
  return withConditions({ ...object, status }, (c) =>
    c.type === 'Available'
      ? { status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
      : { status: 'True', reason: 'NewReplicaSetAvailable', message: 'ReplicaSet has successfully progressed.' },
  );
}
