/**
 * The new memory limit for raise-memory-limit: double the current one, capped by the configured
 * maximum and by the namespace's LimitRange (type Container, max.memory), so that admission
 * accepts the pods. The request goes up with the limit when it equalled it (keeps Guaranteed QoS)
 * or when the LimitRange's maxLimitRequestRatio would otherwise be exceeded.
 *
 * Pure, and shared: the raise-memory-limit action's offer (on the diagnosis' memoised LimitRanges)
 * and its plan (on fresh ones) compute the same change and the same words.
 */
import type { V1LimitRange } from '@kubernetes/client-node';
import { formatMemory, parseMemory } from '../core/memory-quantity.js';
import type { FieldChange } from './field-changes.js';
import { RemediationError } from './remediation-error.js';

export interface MemoryChange {
  limit: string;
  /** Set only when the request must change too. */
  request?: string;
  /** What capped the doubling, when something did. */
  cappedBy?: string;
}

export const DEFAULT_MEMORY_WHEN_UNSET = 2 * 1024 ** 3;

function containerLimits(limitRanges: V1LimitRange[]): { max?: number; ratio?: number; source?: string } {
  let max: number | undefined;
  let ratio: number | undefined;
  let source: string | undefined;
  for (const lr of limitRanges) {
    for (const item of lr.spec?.limits ?? []) {
      if (item.type !== 'Container') continue;
      const m = parseMemory(item.max?.memory);
      if (m !== undefined && (max === undefined || m < max)) {
        max = m;
        source = `LimitRange ${lr.metadata?.name ?? '?'} (max ${item.max?.memory})`;
      }
      const r = Number(item.maxLimitRequestRatio?.memory);
      if (Number.isFinite(r) && r > 0 && (ratio === undefined || r < ratio)) ratio = r;
    }
  }
  return { max, ratio, source };
}

export function raisedMemory(input: {
  limit?: string;
  request?: string;
  maxBytes: number;
  limitRanges: V1LimitRange[];
}): MemoryChange {
  const limit = parseMemory(input.limit);
  const request = parseMemory(input.request);
  const current = limit ?? request;
  let next = current !== undefined ? current * 2 : DEFAULT_MEMORY_WHEN_UNSET;
  let cappedBy: string | undefined;
  if (next > input.maxBytes) {
    next = input.maxBytes;
    cappedBy = `the configured maximum ${formatMemory(input.maxBytes)}`;
  }
  const lr = containerLimits(input.limitRanges);
  if (lr.max !== undefined && next > lr.max) {
    next = lr.max;
    cappedBy = lr.source;
  }
  if (current !== undefined && next <= current) {
    throw new RemediationError(
      'REMEDIATION_AT_LIMIT',
      `the memory limit ${input.limit ?? input.request} is already at ${cappedBy ?? 'its maximum'}; raise the cap or reduce the model's memory by hand`,
    );
  }
  const out: MemoryChange = { limit: formatMemory(next), ...(cappedBy ? { cappedBy } : {}) };
  if (request !== undefined) {
    let nextRequest = request;
    if (limit !== undefined && request === limit) nextRequest = next;
    if (lr.ratio !== undefined && next / nextRequest > lr.ratio) nextRequest = Math.ceil(next / lr.ratio);
    if (nextRequest !== request) out.request = formatMemory(nextRequest);
  }
  return out;
}

/** The proposal's one-line summary of a memory change. */
export function describeMemoryChange(
  component: string,
  from: { limit?: string; request?: string },
  change: MemoryChange,
): string {
  return `Raise the ${component} memory limit from ${from.limit ?? 'none'} to ${change.limit}${change.request ? ` (request ${from.request} → ${change.request})` : ''}${change.cappedBy ? `, capped by ${change.cappedBy}` : ''}`;
}

/** The fields a memory change sets under `resources` at `path`, in the order the dry-run diff lists them. */
export function memoryFieldChanges(
  path: readonly string[],
  from: { limit?: string; request?: string },
  change: MemoryChange,
): FieldChange[] {
  const at = (leaf: string) => [...path, leaf, 'memory'].join('.');
  return [
    { path: at('limits'), before: from.limit, after: change.limit },
    ...(change.request ? [{ path: at('requests'), before: from.request, after: change.request }] : []),
  ];
}

/** A merge patch can only reach object keys: a `resources` inside a container list needs a hand edit. */
export function memoryPathPatchable(path: readonly string[]): boolean {
  return path.every((key) => !/^\d+$/.test(key));
}
