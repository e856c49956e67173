/**
 * A JSON merge patch (RFC 7386) applied to an object, as the API server applies one: objects merge
 * recursively, null removes a key, anything else (arrays included) replaces. A plan made from
 * objects already read computes the change this way instead of asking the API server.
 */
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return structuredClone(patch);
  const result: Obj = isObj(target) ? structuredClone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}
