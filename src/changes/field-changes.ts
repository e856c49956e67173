/**
 * The fields a patch changes: the live object compared with what the API server answered to the
 * dry run, leaf by leaf (metadata and status left out), shown to the approver as before/after lines.
 */
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

/** One changed field, before and after (undefined: absent). */
export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

/** Changed leaves between `before` and `after` under the top-level keys that matter (spec, data…). */
export function fieldChanges(before: unknown, after: unknown, options: { ignore?: string[] } = {}): FieldChange[] {
  const ignore = new Set(options.ignore ?? ['metadata', 'status', 'apiVersion', 'kind']);
  const out: FieldChange[] = [];
  const walk = (a: unknown, b: unknown, path: string[]) => {
    if (path.length === 1 && ignore.has(path[0] ?? '')) return;
    if (isObj(a) && isObj(b)) {
      for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
        walk(a[key], b[key], [...path, key]);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path: path.join('.'), before: a, after: b });
  };
  walk(before, after, []);
  return out;
}

function show(value: unknown): string {
  if (value === undefined) return '(not set)';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

/** "  path:", "-   before", "+   after" for each change (the format findings already use). */
export function diffLines(changes: FieldChange[], maxValueChars = 400): string[] {
  const cutValue = (s: string) => (s.length > maxValueChars ? `${s.slice(0, maxValueChars - 1)}…` : s);
  return changes.flatMap((c) => [`  ${c.path}:`, `-   ${cutValue(show(c.before))}`, `+   ${cutValue(show(c.after))}`]);
}

/** Reads a value at a path of keys (array indexes as strings). */
export function valueAt(object: unknown, path: readonly string[]): unknown {
  let cur: unknown = object;
  for (const key of path) {
    if (Array.isArray(cur)) cur = cur[Number(key)];
    else if (isObj(cur)) cur = cur[key];
    else return undefined;
  }
  return cur;
}

/** A merge patch that sets `value` at `path` (object keys only; null removes). */
export function mergePatchAt(path: readonly string[], value: unknown): Obj {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Obj;
}

/**
 * The changes of some annotations (metadata is otherwise left out of `fieldChanges`): for a patch
 * whose change is an annotation (`serving.kserve.io/stop`), path `metadata.annotations.<key>`.
 */
export function annotationChanges(before: unknown, after: unknown, keys: readonly string[]): FieldChange[] {
  const annotationsOf = (o: unknown): Obj => {
    const meta = isObj(o) ? o.metadata : undefined;
    const a = isObj(meta) ? meta.annotations : undefined;
    return isObj(a) ? a : {};
  };
  const [a, b] = [annotationsOf(before), annotationsOf(after)];
  return keys
    .filter((k) => a[k] !== b[k])
    .map((k) => ({ path: `metadata.annotations.${k}`, before: a[k], after: b[k] }));
}
