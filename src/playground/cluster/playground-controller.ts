/**
 * The playground's stand-in for the KServe / Knative controllers and the kubelet. When an
 * InferenceService's spec changes (a new generation: a "break it" action, or a fix the bot applied),
 * it waits a moment, as a rollout would, then writes the state that spec leads to, following a small
 * workload model: the model needs `needsMemory` (a lower memory limit is OOMKilled), it lives at
 * `modelUri` (any other storageUri is not found), and a crashing canary fails while it gets traffic.
 * It always records `status.observedGeneration`, which the bot's verification waits for.
 */
import { canaryTrafficPercent, componentsOf } from '../../kube/inference-service-view.js';
import type { InferenceServiceObject } from '../../kube/schemas.js';
import type { ObjectStore } from '../../simulator/simulator.js';
import { memoryBytes } from './memory-quantity.js';
import { findIsvc, knativeObjectsOf, podsOf, type KubeObject } from './related-objects.js';
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
}

interface Captured {
  objects: KubeObject[];
  status: unknown;
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
      const main = isvc ? componentsOf(isvc as unknown as InferenceServiceObject).find((c) => c.name === 'predictor' && !c.canary) : undefined;
      if (!w.modelUri && main?.storageUri) w.modelUri = main.storageUri;
      if (w.canaryCrashing) this.capture(w);
    }
    this.unsubscribe = this.store.subscribe((change) => {
      if (change.object.kind !== 'InferenceService' || change.type === 'DELETED') return;
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
      const main = isvc ? componentsOf(isvc as unknown as InferenceServiceObject).find((c) => c.name === 'predictor' && !c.canary) : undefined;
      w = { namespace, name, ...(main?.storageUri ? { modelUri: main.storageUri } : {}), ...(main?.memoryLimit ? { needsMemory: main.memoryLimit } : {}) };
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
    if (!isvc) return;
    const w = this.workload(namespace, name);
    const main = componentsOf(isvc as unknown as InferenceServiceObject).find((c) => c.name === 'predictor' && !c.canary);
    let failure: Failure | undefined;
    if (w.modelUri && main?.storageUri && main.storageUri !== w.modelUri) failure = { kind: 'storage', uri: main.storageUri };
    else if (w.needsMemory && main?.memoryLimit && (memoryBytes(main.memoryLimit) ?? Infinity) < (memoryBytes(w.needsMemory) ?? 0)) failure = { kind: 'oom', limit: main.memoryLimit };
    if (failure) return writeFailing(this.store, this.logs, isvc, failure);
    if (w.canaryCrashing) return this.reconcileCanary(isvc, w, main?.memoryLimit);
    writeHealthy(this.store, isvc, main?.memoryLimit ? { memoryLimit: main.memoryLimit } : {});
  }

  /** Traffic on the crashing canary: its captured failing state; none: the stable revision alone, healthy. */
  private reconcileCanary(isvc: KubeObject, w: Workload, memoryLimit: string | undefined): void {
    const percent = canaryTrafficPercent(isvc as unknown as InferenceServiceObject);
    const captured = this.captured.get(`${w.namespace}/${w.name}`);
    if (percent === 0 && captured) {
      const status = structuredClone((isvc.status ?? {}) as Record<string, any>);
      const predictor = status.components?.predictor;
      const stable = predictor?.latestRolledoutRevision as string | undefined;
      if (predictor && stable) predictor.traffic = [{ revisionName: stable, percent: 100, latestRevision: false, tag: 'prev' }];
      writeHealthy(this.store, { ...isvc, status }, { ...(memoryLimit ? { memoryLimit } : {}), ...(stable ? { servingRevisions: new Set([stable]) } : {}) });
      return;
    }
    if (captured) {
      for (const object of captured.objects) this.store.upsert(structuredClone(object));
      this.store.upsert({ ...isvc, status: structuredClone(captured.status) });
    }
    const live = findIsvc(this.store, w.namespace, w.name);
    if (live) writeObserved(this.store, live);
  }

  private capture(w: Workload): void {
    const isvc = findIsvc(this.store, w.namespace, w.name);
    if (!isvc) return;
    const objects = [...podsOf(this.store, w.namespace, w.name), ...knativeObjectsOf(this.store, w.namespace, w.name)].map((o) => {
      const copy = structuredClone(o);
      delete copy.metadata.resourceVersion;
      return copy;
    });
    this.captured.set(`${w.namespace}/${w.name}`, { objects, status: structuredClone(isvc.status) });
  }
}
