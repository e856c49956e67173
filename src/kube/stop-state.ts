/**
 * Whether an InferenceService is stopped on purpose (`serving.kserve.io/stop`, KServe 0.15+), and
 * who set the annotation: the managedFields entry that owns it (its manager, operation and time).
 */
import type { KubeObject } from './schemas.js';
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

export const STOP_ANNOTATION = 'serving.kserve.io/stop';

export interface StopState {
  /** The annotation says "true" (case-insensitive, as KServe reads it). */
  annotated: boolean;
  value?: string;
  /** Stopped=True in the status. */
  stoppedCondition: boolean;
  setBy?: { manager: string; operation?: string; time?: string };
}

export function stopState(obj: KubeObject): StopState {
  const value = obj.metadata.annotations?.[STOP_ANNOTATION];
  const conditions = isObj(obj.status) && Array.isArray(obj.status.conditions) ? obj.status.conditions : [];
  const stoppedCondition = conditions.some((c) => isObj(c) && c.type === 'Stopped' && c.status === 'True');
  const setBy = annotationOwner(obj);
  return {
    annotated: value?.toLowerCase() === 'true',
    ...(value !== undefined ? { value } : {}),
    stoppedCondition,
    ...(setBy ? { setBy } : {}),
  };
}

/** The latest managedFields entry that owns the stop annotation. */
function annotationOwner(obj: KubeObject): StopState['setBy'] {
  const managed = (obj.metadata as Obj).managedFields;
  if (!Array.isArray(managed)) return undefined;
  const owners = managed.filter((m): m is Obj => {
    if (!isObj(m) || typeof m.manager !== 'string') return false;
    const meta = isObj(m.fieldsV1) ? m.fieldsV1['f:metadata'] : undefined;
    const annotations = isObj(meta) ? meta['f:annotations'] : undefined;
    return isObj(annotations) && `f:${STOP_ANNOTATION}` in annotations;
  });
  const latest = owners.sort((a, b) => String(b.time ?? '').localeCompare(String(a.time ?? '')))[0];
  if (!latest) return undefined;
  return {
    manager: String(latest.manager),
    ...(typeof latest.operation === 'string' ? { operation: latest.operation } : {}),
    ...(typeof latest.time === 'string' ? { time: latest.time } : {}),
  };
}
