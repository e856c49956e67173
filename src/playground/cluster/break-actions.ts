/**
 * "Break it" (and "undo by hand") actions on an InferenceService (or an LLMInferenceService with a
 * KV cache model: its vLLM `--max-model-len`) of the simulated cluster: each
 * edits the spec as a person with kubectl would, and the playground's controller then rolls out
 * what that spec leads to, so the bot's watcher sees the service go unready (and ready again).
 */
import { canaryTrafficPercent, componentsOf, type ComponentView } from '../../kube/inference-service-view.js';
import type { InferenceServiceObject } from '../../kube/schemas.js';
import type { ObjectStore } from '../../simulator/simulator.js';
import { memoryBytes } from './memory-quantity.js';
import type { BreakAction } from './panel-types.js';
import type { PlaygroundController } from './playground-controller.js';
import { gpuCount } from './gpu-count.js';
import { ownRouteFrom, ownRouteName, ownRouteNames } from './llm-route-states.js';
import { maxModelLenArg } from './llm-workload-states.js';
import { findIsvc, findLlmIsvc, type KubeObject } from './related-objects.js';

export type { BreakAction } from './panel-types.js';

export function breakActionsFor(
  store: ObjectStore,
  controller: PlaygroundController,
  namespace: string,
  name: string,
): BreakAction[] {
  const isvc = findIsvc(store, namespace, name);
  if (!isvc) return llmBreakActions(store, controller, namespace, name);
  const main = predictorOf(isvc);
  if (!main) return [];
  const w = controller.workload(namespace, name);
  const actions: BreakAction[] = [];
  const lowered = loweredLimit(w.needsMemory ?? main.memoryLimit);
  if (lowered && (memoryBytes(main.memoryLimit) ?? Infinity) >= (memoryBytes(w.needsMemory) ?? 0)) {
    actions.push({
      id: 'lower-memory',
      label: `Lower the memory limit to ${lowered}`,
      detail: `the model needs ${w.needsMemory ?? main.memoryLimit ?? 'more'}: the container gets OOMKilled`,
    });
  }
  if (main.storageUri && w.modelUri && main.storageUri === w.modelUri) {
    actions.push({
      id: 'missing-storage',
      label: 'Point storageUri at a missing path',
      detail: `${missingUri(w.modelUri)}: the storage-initializer finds no model`,
    });
  }
  if (main.storageUri && w.modelUri && main.storageUri !== w.modelUri) {
    actions.push({
      id: 'restore-storage',
      label: 'Restore the storageUri (fix by hand)',
      detail: `back to ${w.modelUri}`,
    });
  }
  if (w.weightsGiB !== undefined && w.gpuMemoryGiB !== undefined) {
    const gpus = gpuCount(isvc);
    const fitting = fittingGpus(w.weightsGiB, w.gpuMemoryGiB, gpus);
    if (gpus > 1 && fitting === gpus)
      actions.push({
        id: 'fewer-gpus',
        label: `Halve the GPUs to ${gpus / 2}`,
        detail: `${(w.weightsGiB / (gpus / 2)).toFixed(1)} GiB of weights per ${w.gpuMemoryGiB} GiB GPU: CUDA out of memory while loading`,
      });
    if (fitting !== gpus)
      actions.push({
        id: 'more-gpus',
        label: `Spread the model over ${fitting} GPUs (fix by hand)`,
        detail: `nvidia.com/gpu: ${fitting} and --tensor-parallel-size=${fitting}: ${(w.weightsGiB / fitting).toFixed(1)} GiB of weights per GPU`,
      });
  }
  if (w.canaryCrashing && canaryTrafficPercent(isvc as unknown as InferenceServiceObject) === 0) {
    actions.push({
      id: 'canary-traffic',
      label: 'Send 10% of traffic to the crashing canary',
      detail: 'canaryTrafficPercent: 10 on a revision that crash-loops',
    });
  }
  return actions;
}

/** Applies an action; an error message when it does not apply to this service (now). */
export function runBreakAction(
  store: ObjectStore,
  controller: PlaygroundController,
  namespace: string,
  name: string,
  id: string,
): string | null {
  const available = breakActionsFor(store, controller, namespace, name);
  if (!available.some((a) => a.id === id)) return `"${id}" does not apply to ${namespace}/${name} now`;
  const found = findIsvc(store, namespace, name);
  if (!found) {
    runLlmBreakAction(store, controller, namespace, name, id);
    return null;
  }
  const isvc = structuredClone(found);
  const main = predictorOf(isvc)!;
  const w = controller.workload(namespace, name);
  const block = at(isvc, main.modelPath);
  if (id === 'lower-memory') {
    const limit = loweredLimit(w.needsMemory ?? main.memoryLimit)!;
    w.needsMemory ??= main.memoryLimit;
    block.resources ??= {};
    const resources = block.resources as Record<string, any>;
    resources.limits = { ...(resources.limits ?? {}), memory: limit };
    if (resources.requests?.memory) resources.requests = { ...resources.requests, memory: limit };
  } else if (id === 'missing-storage') block.storageUri = missingUri(w.modelUri!);
  else if (id === 'restore-storage') block.storageUri = w.modelUri;
  else if (id === 'fewer-gpus' || id === 'more-gpus') {
    const gpus = gpuCount(isvc);
    setGpus(block, id === 'fewer-gpus' ? gpus / 2 : fittingGpus(w.weightsGiB!, w.gpuMemoryGiB!, gpus));
  } else if (id === 'canary-traffic') at(isvc, ['spec', 'predictor']).canaryTrafficPercent = 10;
  delete isvc.metadata.resourceVersion;
  store.upsert(isvc);
  return null;
}

function llmBreakActions(
  store: ObjectStore,
  controller: PlaygroundController,
  namespace: string,
  name: string,
): BreakAction[] {
  const llmisvc = findLlmIsvc(store, namespace, name);
  const w = controller.workload(namespace, name);
  if (llmisvc && w.routeTimeoutsRefusedBy !== undefined)
    return ownRouteNames(llmisvc).length === 0
      ? [
          {
            id: 'own-route',
            label: 'Route through an own HTTPRoute without timeouts (fix by hand)',
            detail: `${ownRouteName(name)}, named in spec.router.route.http.refs: ${w.routeTimeoutsRefusedBy} accepts it`,
          },
        ]
      : [
          {
            id: 'managed-route',
            label: 'Go back to the managed HTTPRoute',
            detail: `its rules carry the router preset's timeouts, which ${w.routeTimeoutsRefusedBy} refuses`,
          },
        ];
  if (!llmisvc || w.kvCacheTokens === undefined) return [];
  const given = maxModelLenArg(llmisvc);
  const effective = given ?? w.contextTokens;
  if (effective !== undefined && effective <= w.kvCacheTokens)
    return [
      {
        id: 'drop-max-model-len',
        label: 'Remove --max-model-len',
        detail: `vLLM takes the model's ${w.contextTokens ?? 'declared'}-token context; the KV cache holds ${w.kvCacheTokens}`,
      },
    ];
  return [
    {
      id: 'set-max-model-len',
      label: `Pass --max-model-len ${fittingLen(w.kvCacheTokens)} (fix by hand)`,
      detail: `at most the ${w.kvCacheTokens} tokens the KV cache holds`,
    },
  ];
}

function runLlmBreakAction(
  store: ObjectStore,
  controller: PlaygroundController,
  namespace: string,
  name: string,
  id: string,
): void {
  const llmisvc = structuredClone(findLlmIsvc(store, namespace, name)!);
  const w = controller.workload(namespace, name);
  delete llmisvc.metadata.resourceVersion;
  if (id === 'own-route' || id === 'managed-route') {
    const router = at(llmisvc, ['spec', 'router']);
    if (id === 'own-route') {
      const route = ownRouteFrom(store, namespace, name);
      if (route) store.upsert(route);
      router.route = { http: { refs: [{ name: ownRouteName(name) }] } };
    } else {
      for (const r of ownRouteNames(llmisvc)) store.delete('gateway.networking.k8s.io/v1', 'HTTPRoute', namespace, r);
      router.route = {};
    }
    store.upsert(llmisvc);
    return;
  }
  const template = at(llmisvc, ['spec', 'template']);
  template.containers ??= [];
  const containers = template.containers as Array<Record<string, any>>;
  let main = containers.find((c) => c.name === 'main');
  if (!main) {
    main = { name: 'main' };
    containers.push(main);
  }
  const args = ((main.args ?? []) as unknown[]).map(String);
  const kept = args.filter((a, i) => !a.startsWith('--max-model-len') && args[i - 1] !== '--max-model-len');
  main.args = id === 'set-max-model-len' ? [...kept, '--max-model-len', String(fittingLen(w.kvCacheTokens!))] : kept;
  delete llmisvc.metadata.resourceVersion;
  store.upsert(llmisvc);
}

/** The GPUs that hold the weights: these if they do, else doubled until they do. */
function fittingGpus(weightsGiB: number, gpuMemoryGiB: number, gpus: number): number {
  let n = Math.max(1, gpus);
  while (weightsGiB / n > gpuMemoryGiB && n < 1024) n *= 2;
  return n;
}

/** The GPU limit and request, and vLLM's tensor parallel size to match. */
function setGpus(block: Record<string, any>, gpus: number): void {
  block.resources ??= {};
  const resources = block.resources as Record<string, any>;
  resources.limits = { ...(resources.limits ?? {}), 'nvidia.com/gpu': String(gpus) };
  if (resources.requests?.['nvidia.com/gpu'] !== undefined)
    resources.requests = { ...resources.requests, 'nvidia.com/gpu': String(gpus) };
  if (Array.isArray(block.args))
    block.args = (block.args as unknown[]).map((a) =>
      String(a).startsWith('--tensor-parallel-size=') ? `--tensor-parallel-size=${gpus}` : a,
    );
}

/** A round max model len that fits: the largest multiple of 1024 tokens within the KV cache. */
function fittingLen(kvCacheTokens: number): number {
  return Math.max(1024, Math.floor(kvCacheTokens / 1024) * 1024);
}

function predictorOf(isvc: KubeObject): ComponentView | undefined {
  return componentsOf(isvc as unknown as InferenceServiceObject).find((c) => c.name === 'predictor' && !c.canary);
}

function at(object: KubeObject, path: string[]): Record<string, any> {
  let node = object as Record<string, any>;
  for (const key of path) {
    node[key] ??= {};
    node = node[key] as Record<string, any>;
  }
  return node;
}

/** Half of what the model needs, in Mi: the bot's doubling brings it back to enough. */
function loweredLimit(needs: string | undefined): string | undefined {
  const bytes = memoryBytes(needs);
  return bytes ? `${Math.max(64, Math.round(bytes / 2 / 1024 ** 2))}Mi` : undefined;
}

function missingUri(uri: string): string {
  return `${uri.replace(/\/+$/, '')}-v2`;
}
