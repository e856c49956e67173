/**
 * The playground's stand-in for the KServe / Knative controllers and the kubelet. When an
 * InferenceService's spec changes (a new generation: a "break it" action, or a fix the bot applied),
 * it waits a moment, as a rollout would, then writes the state that spec leads to, following a small
 * workload model: the model needs `needsMemory` (a lower memory limit is OOMKilled), it lives at
 * `modelUri` (any other storageUri is not found), and a crashing canary fails while it gets traffic;
 * an LLMInferenceService's vLLM starts when its max model len fits `kvCacheTokens`, and a vLLM
 * InferenceService loads when `weightsGiB` over its GPUs fits `gpuMemoryGiB` each; an LLMInferenceService
 * whose gateway refuses route timeouts is accepted through an own route.
 * It always records `status.observedGeneration`, which the bot's verification waits for.
 */
import { canaryTrafficPercent, componentsOf } from '../../kube/inference-service-view.js';
import type { InferenceServiceObject } from '../../kube/schemas.js';
import type { ObjectStore } from '../../simulator/simulator.js';
import { memoryBytes } from './memory-quantity.js';
import { gpuCount } from './gpu-count.js';
import { availableDeployment, llmWorkloadObjectsOf, maxModelLenArg, writeLlmHealthy } from './llm-workload-states.js';
import { ownRouteNames, writeOwnRouteAccepted } from './llm-route-states.js';
import { findIsvc, findLlmIsvc, knativeObjectsOf, ownedBy, podsOf, type KubeObject } from './related-objects.js';
import { writeFailing, writeHealthy, writeObserved, type Failure, type LogMap } from './workload-states.js';

export interface Workload {
  namespace: string;
  name: string;
  /** The memory the model needs; a lower limit gets OOMKilled. */
  needsMemory?: string;
  /** Where the model is; another storageUri is not found. */
  modelUri?: string;
  /** The captured state has a crashing canary revision: it fails whenever it gets traffic. */
  canaryCrashing?: boolean;
  /** LLMInferenceService: the tokens its KV cache holds; a longer max model len fails to start (the captured state). */
  kvCacheTokens?: number;
  /** LLMInferenceService: the context length the model declares, vLLM's max model len when none is given. */
  contextTokens?: number;
  /** LLMInferenceService: the gateway controller that refuses HTTPRoute timeouts (the managed route has them). */
  routeTimeoutsRefusedBy?: string;
  /** vLLM InferenceService: GiB of weights, split over its `nvidia.com/gpu` GPUs (tensor parallel). */
  weightsGiB?: number;
  /** GiB each GPU has; more weights per GPU run out of GPU memory while loading (the captured state). */
  gpuMemoryGiB?: number;
}

interface Captured {
  objects: KubeObject[];
  status: unknown;
  logs?: Array<[string, string]>;
}

export class PlaygroundController {
  private readonly workloads = new Map<string, Workload>();
  private readonly captured = new Map<string, Captured>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly logs: LogMap,
    workloads: Workload[],
    private readonly rolloutMs = 800,
  ) {
    for (const w of workloads) this.workloads.set(`${w.namespace}/${w.name}`, { ...w });
  }

  start(): void {
    for (const w of this.workloads.values()) {
      const isvc = findIsvc(this.store, w.namespace, w.name);
      const main = isvc
        ? componentsOf(isvc as unknown as InferenceServiceObject).find((c) => c.name === 'predictor' && !c.canary)
        : undefined;
      if (!w.modelUri && main?.storageUri) w.modelUri = main.storageUri;
      if (w.canaryCrashing || w.weightsGiB !== undefined) this.capture(w);
      if (w.kvCacheTokens !== undefined || w.routeTimeoutsRefusedBy !== undefined) this.captureLlm(w);
    }
    this.unsubscribe = this.store.subscribe((change) => {
      const kind = change.object.kind;
      if ((kind !== 'InferenceService' && kind !== 'LLMInferenceService') || change.type === 'DELETED') return;
      const before = change.previous?.metadata.generation;
      if (before !== undefined && before === change.object.metadata.generation) return;
      this.schedule(change.object.metadata.namespace ?? '', change.object.metadata.name);
    });
  }

  stop(): void {
    this.unsubscribe?.();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** The workload model of a service (made from its current spec when the scenario gave none). */
  workload(namespace: string, name: string): Workload {
    const key = `${namespace}/${name}`;
    let w = this.workloads.get(key);
    if (!w) {
      const isvc = findIsvc(this.store, namespace, name);
      const main = isvc
        ? componentsOf(isvc as unknown as InferenceServiceObject).find((c) => c.name === 'predictor' && !c.canary)
        : undefined;
      w = {
        namespace,
        name,
        ...(main?.storageUri ? { modelUri: main.storageUri } : {}),
        ...(main?.memoryLimit ? { needsMemory: main.memoryLimit } : {}),
      };
      this.workloads.set(key, w);
    }
    return w;
  }

  private schedule(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.reconcile(namespace, name);
      }, this.rolloutMs),
    );
  }

  reconcile(namespace: string, name: string): void {
    const isvc = findIsvc(this.store, namespace, name);
    if (!isvc) {
      const llmisvc = findLlmIsvc(this.store, namespace, name);
      if (llmisvc) this.reconcileLlm(llmisvc);
      return;
    }
    const w = this.workload(namespace, name);
    const main = componentsOf(isvc as unknown as InferenceServiceObject).find(
      (c) => c.name === 'predictor' && !c.canary,
    );
    let failure: Failure | undefined;
    if (w.modelUri && main?.storageUri && main.storageUri !== w.modelUri)
      failure = { kind: 'storage', uri: main.storageUri };
    else if (
      w.needsMemory &&
      main?.memoryLimit &&
      (memoryBytes(main.memoryLimit) ?? Infinity) < (memoryBytes(w.needsMemory) ?? 0)
    )
      failure = { kind: 'oom', limit: main.memoryLimit };
    if (failure) writeFailing(this.store, this.logs, isvc, failure);
    else if (w.weightsGiB !== undefined && w.gpuMemoryGiB !== undefined) this.reconcileGpu(isvc, w);
    else if (w.canaryCrashing) this.reconcileCanary(isvc, w, main?.memoryLimit);
    else writeHealthy(this.store, isvc, main?.memoryLimit ? { memoryLimit: main.memoryLimit } : {});
  }

  /** Traffic on the crashing canary: its captured failing state; none: the stable revision alone, healthy. */
  private reconcileCanary(isvc: KubeObject, w: Workload, memoryLimit: string | undefined): void {
    const percent = canaryTrafficPercent(isvc as unknown as InferenceServiceObject);
    const captured = this.captured.get(`${w.namespace}/${w.name}`);
    if (percent === 0 && captured) {
      const status = structuredClone((isvc.status ?? {}) as Record<string, any>);
      const predictor = status.components?.predictor;
      const stable = predictor?.latestRolledoutRevision as string | undefined;
      if (predictor && stable)
        predictor.traffic = [{ revisionName: stable, percent: 100, latestRevision: false, tag: 'prev' }];
      writeHealthy(
        this.store,
        { ...isvc, status },
        { ...(memoryLimit ? { memoryLimit } : {}), ...(stable ? { servingRevisions: new Set([stable]) } : {}) },
      );
      return;
    }
    if (captured) {
      for (const object of captured.objects) this.store.upsert(structuredClone(object));
      this.store.upsert({ ...isvc, status: structuredClone(captured.status) });
    }
    const live = findIsvc(this.store, w.namespace, w.name);
    if (live) writeObserved(this.store, live);
  }

  /**
   * An LLMInferenceService with a KV cache model: a max model len (the arg, else the model's context)
   * that fits starts the engine; one that does not is the captured state (vLLM's ValueError, crash loop).
   */
  private reconcileLlm(llmisvc: KubeObject): void {
    const { namespace = '', name } = llmisvc.metadata;
    const w = this.workloads.get(`${namespace}/${name}`);
    const captured = this.captured.get(`${namespace}/${name}`);
    if (w?.routeTimeoutsRefusedBy !== undefined) {
      const own = ownRouteNames(llmisvc);
      if (
        own.length > 0 &&
        own.every((r) => this.store.get('gateway.networking.k8s.io/v1', 'HTTPRoute', namespace, r))
      ) {
        writeOwnRouteAccepted(this.store, llmisvc, w.routeTimeoutsRefusedBy);
        return;
      }
    } else if (w?.kvCacheTokens === undefined) {
      writeObserved(this.store, llmisvc);
      return;
    } else {
      const maxModelLen = maxModelLenArg(llmisvc) ?? w.contextTokens;
      if (maxModelLen !== undefined && maxModelLen <= w.kvCacheTokens) {
        writeLlmHealthy(this.store, this.logs, llmisvc, maxModelLen);
        return;
      }
    }
    if (captured) {
      for (const object of captured.objects) this.store.upsert(structuredClone(object));
      for (const [key, text] of captured.logs ?? []) this.logs.set(key, text);
      this.store.upsert({ ...llmisvc, status: structuredClone(captured.status) });
    }
    const live = findLlmIsvc(this.store, namespace, name);
    if (live) writeObserved(this.store, live);
  }

  private captureLlm(w: Workload): void {
    const llmisvc = findLlmIsvc(this.store, w.namespace, w.name);
    if (!llmisvc) return;
    const routing = [
      ...this.store.list('gateway.networking.k8s.io/v1', 'HTTPRoute', w.namespace),
      ...this.store.list('inference.networking.k8s.io/v1', 'InferencePool', w.namespace),
    ].filter((o) => {
      const labels = (o.metadata.labels ?? {}) as Record<string, string>;
      return (
        labels['app.kubernetes.io/name'] === w.name && labels['app.kubernetes.io/part-of'] === 'llminferenceservice'
      );
    });
    const objects = [...llmWorkloadObjectsOf(this.store, w.namespace, w.name), ...routing].map((o) => {
      const copy = structuredClone(o);
      delete copy.metadata.resourceVersion;
      return copy;
    });
    const pods = objects.filter((o) => o.kind === 'Pod').map((p) => `${w.namespace}/${p.metadata.name}/`);
    const logs = [...this.logs].filter(([key]) => pods.some((p) => key.startsWith(p)));
    this.captured.set(`${w.namespace}/${w.name}`, { objects, status: structuredClone(llmisvc.status), logs });
  }

  /** Weights that fit the GPUs: the pods start and the Deployment is available; more: the captured CUDA OOM. */
  private reconcileGpu(isvc: KubeObject, w: Workload): void {
    const gpus = gpuCount(isvc);
    const fits = gpus > 0 && (w.weightsGiB ?? 0) / gpus <= (w.gpuMemoryGiB ?? 0);
    if (fits) {
      writeHealthy(this.store, isvc, {});
      for (const pod of podsOf(this.store, w.namespace, w.name)) {
        for (const key of [...this.logs.keys()])
          if (key.startsWith(`${w.namespace}/${pod.metadata.name}/`) && key.endsWith('#previous'))
            this.logs.delete(key);
        this.logs.set(
          `${w.namespace}/${pod.metadata.name}/kserve-container`,
          loadedLog(gpus, (w.weightsGiB ?? 0) / gpus),
        );
      }
      for (const d of this.store.list('apps/v1', 'Deployment', w.namespace).filter((o) => ownedBy(o, w.name)))
        this.store.upsert(availableDeployment(d));
      return;
    }
    const captured = this.captured.get(`${w.namespace}/${w.name}`);
    if (captured) {
      for (const object of captured.objects) this.store.upsert(structuredClone(object));
      for (const [key, text] of captured.logs ?? []) this.logs.set(key, text);
      this.store.upsert({ ...isvc, status: structuredClone(captured.status) });
    }
    const live = findIsvc(this.store, w.namespace, w.name);
    if (live) writeObserved(this.store, live);
  }

  private capture(w: Workload): void {
    const isvc = findIsvc(this.store, w.namespace, w.name);
    if (!isvc) return;
    const objects = [
      ...podsOf(this.store, w.namespace, w.name),
      ...knativeObjectsOf(this.store, w.namespace, w.name),
      ...this.store.list('apps/v1', 'Deployment', w.namespace).filter((o) => ownedBy(o, w.name)),
    ].map((o) => {
      const copy = structuredClone(o);
      delete copy.metadata.resourceVersion;
      return copy;
    });
    const pods = objects.filter((o) => o.kind === 'Pod').map((p) => `${w.namespace}/${p.metadata.name}/`);
    const logs = [...this.logs].filter(([key]) => pods.some((p) => key.startsWith(p)));
    this.captured.set(`${w.namespace}/${w.name}`, { objects, status: structuredClone(isvc.status), logs });
  }
}

function loadedLog(gpus: number, perGpuGiB: number): string {
  const at = new Date().toISOString().slice(5, 19).replace('T', ' ');
  return [
    `INFO ${at} [config.py:1399] Defaulting to use mp for distributed inference (tensor parallel size ${gpus})`,
    `INFO ${at} [model_runner.py:1115] Loading model weights took ${perGpuGiB.toFixed(2)} GiB`,
    `INFO:     Application startup complete.`,
    '',
  ].join('\n');
}
