/**
 * The rows of a status list with the root cause of each service that is not Ready, and the JSON
 * items `isvc-doctor status -o json` prints (the MCP `status` tool returns the same). URLs and
 * reasons come from the cluster and may carry a secret: redacted in every output.
 */
import type { TargetRef } from '../core/target-ref.js';
import type { Report } from '../findings/types.js';
import { redactText } from '../logs/redact.js';
import type { IsvcStatus } from './list-isvc-status.js';

/** Diagnoses of unready services running at once. */
const CONCURRENCY = 4;

export interface StatusRow extends IsvcStatus {
  /** The root cause code of one that is not Ready (null when Ready, or when nothing explains it). */
  rootCause: string | null;
}

export interface StatusItem {
  namespace: string;
  name: string;
  apiVersion: string;
  ready: boolean | null;
  rootCause: string | null;
  reason?: string;
  url?: string;
}

/** The root cause of each service that is not Ready, CONCURRENCY diagnoses at a time. */
export async function withRootCauses(
  items: IsvcStatus[],
  diagnose: (target: TargetRef) => Promise<Pick<Report, 'rootCause'>>,
): Promise<StatusRow[]> {
  const rows: StatusRow[] = items.map((i) => ({ ...i, ...(i.url ? { url: redactText(i.url) } : {}), rootCause: null }));
  const pending = rows.filter((r) => r.ready !== true);
  const worker = async () => {
    for (let row = pending.shift(); row; row = pending.shift())
      row.rootCause = (
        await diagnose({ namespace: row.namespace, name: row.name, ...(row.kind ? { kind: row.kind } : {}) })
      ).rootCause;
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
  return rows;
}

/** The items of `status -o json`. */
export function statusItems(rows: StatusRow[]): StatusItem[] {
  return rows.map((r) => ({
    namespace: r.namespace,
    name: r.name,
    apiVersion: r.apiVersion,
    ...(r.kind ? { kind: 'LLMInferenceService' } : {}),
    ready: r.ready,
    rootCause: r.rootCause,
    ...(r.reason ? { reason: redactText(r.reason) } : {}),
    ...(r.url ? { url: redactText(r.url) } : {}),
  }));
}
