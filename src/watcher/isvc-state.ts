/**
 * What the watcher keeps of an InferenceService: enough to decide on incidents (Ready or not, since
 * when, why), not the whole object. Pure.
 */
import { conditionOf } from '../kube/inference-service-view.js';
import type { Condition } from '../kube/schemas.js';

export interface IsvcState {
  /** "namespace/name": the identity incidents, mutes and Redis keys use. */
  key: string;
  namespace: string;
  name: string;
  apiVersion: string;
  ready: boolean;
  /** The Ready condition's reason and message ("" when absent): a change while unready triggers a re-diagnosis. */
  reason: string;
  message: string;
  /** Ready's lastTransitionTime in ms, when the object says. */
  transitionAt: number | null;
  generation: number;
}

interface IsvcLike {
  apiVersion?: string;
  metadata?: { name?: string; namespace?: string; generation?: number };
  status?: { conditions?: Condition[] };
}

export function isvcKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

export function isvcStateOf(object: IsvcLike): IsvcState | null {
  const name = object.metadata?.name;
  const namespace = object.metadata?.namespace;
  if (!name || !namespace) return null;
  const ready = conditionOf(object, 'Ready');
  const at = ready?.lastTransitionTime ? Date.parse(String(ready.lastTransitionTime)) : NaN;
  return {
    key: isvcKey(namespace, name),
    namespace,
    name,
    apiVersion: object.apiVersion ?? '',
    ready: ready?.status === 'True',
    reason: ready?.reason ?? '',
    message: ready?.message ?? '',
    transitionAt: Number.isFinite(at) ? at : null,
    generation: object.metadata?.generation ?? 0,
  };
}

/** Whether two readings differ in a way that matters to incidents. */
export function sameIsvcState(a: IsvcState, b: IsvcState): boolean {
  return (
    a.ready === b.ready &&
    a.reason === b.reason &&
    a.message === b.message &&
    a.transitionAt === b.transitionAt &&
    a.generation === b.generation &&
    a.apiVersion === b.apiVersion
  );
}
