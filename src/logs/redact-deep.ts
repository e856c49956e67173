/**
 * Redacts every string in a JSON-like value (a log record, an audit entry, an API body) and returns
 * a copy; the input is not changed. A value under a secret-looking key (`password`, `token`,
 * `clientSecret`, `apiKey`...) is masked whole, whatever it looks like; an `authorization` value
 * keeps its scheme. Cycles are kept as cycles; Errors keep their class with message and stack
 * redacted; Dates, Buffers and typed arrays are returned as they are.
 */
import { REDACTED } from './redaction-marker.js';
import { redactText } from './redact.js';
import { secretKeyStrength } from './secret-key-name.js';
import { isPlaceholder } from './secret-value.js';

const MAX_DEPTH = 64;

export function redactDeep<T>(value: T): T {
  return walk(value, new WeakMap(), 0) as T;
}

function maskUnderKey(key: string, value: unknown): unknown {
  if (/^(?:proxy-)?authorization$/i.test(key) && typeof value === 'string') {
    const scheme = /^(\w+)\s+\S/.exec(value);
    return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
  }
  if (secretKeyStrength(key) !== 'strong') return undefined;
  if (typeof value === 'string') return isPlaceholder(value) ? redactText(value) : REDACTED;
  return typeof value === 'number' || typeof value === 'bigint' ? REDACTED : undefined;
}

function walk(value: unknown, seen: WeakMap<object, unknown>, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
  if (seen.has(value)) return seen.get(value);
  if (depth >= MAX_DEPTH) return '[too deep to redact]';
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(walk(item, seen, depth + 1));
    return copy;
  }
  if (value instanceof Map) {
    const copy = new Map();
    seen.set(value, copy);
    for (const [k, v] of value)
      copy.set(k, typeof k === 'string' ? (maskUnderKey(k, v) ?? walk(v, seen, depth + 1)) : walk(v, seen, depth + 1));
    return copy;
  }
  const copy: Record<string, unknown> =
    value instanceof Error ? (Object.create(Object.getPrototypeOf(value) as object) as Record<string, unknown>) : {};
  seen.set(value, copy);
  const keys =
    value instanceof Error ? new Set(['name', 'message', 'stack', ...Object.keys(value)]) : Object.keys(value);
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined && !(key in value)) continue;
    copy[redactText(key)] = maskUnderKey(key, v) ?? walk(v, seen, depth + 1);
  }
  // a Kubernetes env entry `{name: DB_PASSWORD, value: ...}`: the name says what the value is
  const env = value as { name?: unknown; value?: unknown };
  if (
    typeof env.name === 'string' &&
    typeof env.value === 'string' &&
    secretKeyStrength(env.name) === 'strong' &&
    !isPlaceholder(env.value)
  )
    copy.value = REDACTED;
  return copy;
}
