/**
 * "Break it" (and "undo by hand") actions on an InferenceService of the simulated cluster: each
 * edits the spec as a person with kubectl would, and the playground's controller then rolls out
 * what that spec leads to, so the bot's watcher sees the service go unready (and ready again).
 */
import { canaryTrafficPercent, componentsOf, type ComponentView } from '../../kube/inference-service-view.js';
import type { InferenceServiceObject } from '../../kube/schemas.js';
import type { ObjectStore } from '../../simulator/simulator.js';
import { memoryBytes } from './memory-quantity.js';
import type { BreakAction } from './panel-types.js';
import type { PlaygroundController } from './playground-controller.js';
import { findIsvc, type KubeObject } from './related-objects.js';

export type { BreakAction } from './panel-types.js';

export function breakActionsFor(store: ObjectStore, controller: PlaygroundController, namespace: string, name: string): BreakAction[] {
  const isvc = findIsvc(store, namespace, name);
  const main = isvc ? predictorOf(isvc) : undefined;
  if (!isvc || !main) return [];
  const w = controller.workload(namespace, name);
  const actions: BreakAction[] = [];
  const lowered = loweredLimit(w.needsMemory ?? main.memoryLimit);
  if (lowered && (memoryBytes(main.memoryLimit) ?? Infinity) >= (memoryBytes(w.needsMemory) ?? 0)) {
    actions.push({ id: 'lower-memory', label: `Lower the memory limit to ${lowered}`, detail: `the model needs ${w.needsMemory ?? main.memoryLimit ?? 'more'}: the container gets OOMKilled` });
  }
  if (main.storageUri && w.modelUri && main.storageUri === w.modelUri) {
    actions.push({ id: 'missing-storage', label: 'Point storageUri at a missing path', detail: `${missingUri(w.modelUri)}: the storage-initializer finds no model` });
  }
  if (main.storageUri && w.modelUri && main.storageUri !== w.modelUri) {
    actions.push({ id: 'restore-storage', label: 'Restore the storageUri (fix by hand)', detail: `back to ${w.modelUri}` });
  }
  if (w.canaryCrashing && canaryTrafficPercent(isvc as unknown as InferenceServiceObject) === 0) {
    actions.push({ id: 'canary-traffic', label: 'Send 10% of traffic to the crashing canary', detail: 'canaryTrafficPercent: 10 on a revision that crash-loops' });
  }
  return actions;
}

/** Applies an action; an error message when it does not apply to this service (now). */
export function runBreakAction(store: ObjectStore, controller: PlaygroundController, namespace: string, name: string, id: string): string | null {
  const available = breakActionsFor(store, controller, namespace, name);
  if (!available.some((a) => a.id === id)) return `"${id}" does not apply to ${namespace}/${name} now`;
  const isvc = structuredClone(findIsvc(store, namespace, name)!);
  const main = predictorOf(isvc)!;
  const w = controller.workload(namespace, name);
  const block = at(isvc, main.modelPath);
  if (id === 'lower-memory') {
    const limit = loweredLimit(w.needsMemory ?? main.memoryLimit)!;
    w.needsMemory ??= main.memoryLimit;
    const resources = (block.resources ??= {}) as Record<string, any>;
    resources.limits = { ...(resources.limits ?? {}), memory: limit };
    if (resources.requests?.memory) resources.requests = { ...resources.requests, memory: limit };
  } else if (id === 'missing-storage') block.storageUri = missingUri(w.modelUri!);
  else if (id === 'restore-storage') block.storageUri = w.modelUri;
  else if (id === 'canary-traffic') at(isvc, ['spec', 'predictor']).canaryTrafficPercent = 10;
  delete isvc.metadata.resourceVersion;
  store.upsert(isvc);
  return null;
}

function predictorOf(isvc: KubeObject): ComponentView | undefined {
  return componentsOf(isvc as unknown as InferenceServiceObject).find((c) => c.name === 'predictor' && !c.canary);
}

function at(object: KubeObject, path: string[]): Record<string, any> {
  let node = object as Record<string, any>;
  for (const key of path) node = (node[key] ??= {}) as Record<string, any>;
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
