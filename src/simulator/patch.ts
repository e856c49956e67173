/**
 * Patch semantics of kube-apiserver: JSON merge patch (RFC 7386), JSON patch (RFC 6902, via
 * fast-json-patch), strategic merge patch approximated as a merge patch that merges lists of
 * named items (containers, env, volumes…) by `name`, and server-side apply treated as a merge.
 */
import jsonPatch from 'fast-json-patch';
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest, unsupportedMediaType } from './api-error.js';
import { deepCopy, isPlainObject } from './kube-object.js';

export const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

/** RFC 7386: objects merge recursively, null removes, anything else (arrays included) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return deepCopy(patch);
  const result: Record<string, unknown> = isPlainObject(target) ? deepCopy(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** Merge patch where lists whose items all have a `name` are merged item by item (and `$patch: delete` removes one). */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (Array.isArray(patch) && Array.isArray(target) && isNamedList(patch) && isNamedList(target)) {
    return mergeNamedLists(target as Record<string, unknown>[], patch as Record<string, unknown>[]);
  }
  if (!isPlainObject(patch)) return deepCopy(patch);
  const result: Record<string, unknown> = isPlainObject(target) ? deepCopy(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) continue; // directives ($setElementOrder, $retainKeys…) only order or prune
    if (value === null) delete result[key];
    else result[key] = strategicMergePatch(result[key], value);
  }
  return result;
}

function isNamedList(list: unknown[]): boolean {
  return list.length > 0 && list.every((item) => isPlainObject(item) && typeof item.name === 'string');
}

function mergeNamedLists(target: Record<string, unknown>[], patch: Record<string, unknown>[]): unknown[] {
  const result = target.map((item) => deepCopy(item));
  for (const item of patch) {
    const index = result.findIndex((existing) => existing.name === item.name);
    if (item.$patch === 'delete') {
      if (index >= 0) result.splice(index, 1);
    } else if (index >= 0) result[index] = strategicMergePatch(result[index], item) as Record<string, unknown>;
    else result.push(strategicMergePatch({}, item) as Record<string, unknown>);
  }
  return result;
}

/** RFC 6902; a failed `test` or an unresolvable path is a 422 Invalid, a malformed patch a 400. */
export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw badRequest('the JSON patch must be a list of operations');
  const document = deepCopy(target);
  try {
    return jsonPatch.applyPatch(document, operations as jsonPatch.Operation[], true, true).newDocument;
  } catch (error) {
    const e = error as { name?: string; message?: string; operation?: { path?: string } };
    const where = e.operation?.path ? ` (${e.operation.path})` : '';
    if (e.name === 'TEST_OPERATION_FAILED')
      throw new ApiError(
        422,
        'Invalid',
        `the server rejected our request due to an error in our request: testing value${where} failed`,
      );
    if (e.name?.startsWith('OPERATION_')) {
      const unresolvable =
        e.name === 'OPERATION_PATH_UNRESOLVABLE' ||
        e.name === 'OPERATION_PATH_CANNOT_ADD' ||
        e.name === 'OPERATION_FROM_UNRESOLVABLE';
      if (unresolvable)
        throw new ApiError(
          422,
          'Invalid',
          `the server rejected our request due to an error in our request: ${(e.message ?? '').split('\n')[0]}${where}`,
        );
      throw badRequest(`invalid JSON patch: ${(e.message ?? '').split('\n')[0]}${where}`);
    }
    throw badRequest(`invalid JSON patch: ${String(e.message ?? error)}`);
  }
}

/** Parses the request body by patch type and applies it to `current`. */
export function applyPatch(
  current: unknown,
  contentType: string,
  body: string,
  options: { strategicAllowed: boolean },
): unknown {
  switch (contentType) {
    case PATCH_TYPES.json:
      return applyJsonPatch(current, parsePatchJson(body));
    case PATCH_TYPES.merge:
      return mergePatch(current, requireObject(parsePatchJson(body)));
    case PATCH_TYPES.strategic:
      if (!options.strategicAllowed) throw unsupportedMediaType(contentType);
      return strategicMergePatch(current, requireObject(parsePatchJson(body)));
    case PATCH_TYPES.apply:
      return mergePatch(current, requireObject(parseApplyYaml(body)));
    default:
      throw unsupportedMediaType(contentType);
  }
}

function parsePatchJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    throw badRequest(`the patch could not be decoded as JSON: ${(error as Error).message}`);
  }
}

function parseApplyYaml(body: string): unknown {
  try {
    return parseYaml(body) as unknown;
  } catch (error) {
    throw badRequest(`the apply patch could not be decoded: ${(error as Error).message.split('\n')[0]}`);
  }
}

function requireObject(patch: unknown): Record<string, unknown> {
  if (!isPlainObject(patch)) throw badRequest('a merge patch must be a JSON object');
  return patch;
}
