/**
 * The last report of each InferenceService this process diagnosed (a tool call, a status row),
 * served as the resource `isvc-doctor://reports/NAMESPACE/NAME`. Bounded: the oldest goes first.
 * The multi-cluster web process keeps the JSON its agents answered with, per cluster: the same
 * namespace/name on two clusters are two services (`isvc-doctor://clusters/CLUSTER/reports/…`).
 */
import type { Report } from '../findings/types.js';
import { renderJsonReport } from '../render/json-report.js';

const MAX_REPORTS = 200;

interface Kept {
  namespace: string;
  name: string;
  rootCause: string | null;
  at: number;
  report?: Report;
  /** An agent's answer, as `diagnose -o json` prints it. */
  json?: string;
  cluster?: string;
}

export class LastReports {
  private readonly byKey = new Map<string, Kept>();

  constructor(private readonly max = MAX_REPORTS) {}

  remember(report: Report, now = Date.now()): void {
    const { namespace, name } = report.target;
    this.keep({ namespace, name, rootCause: report.rootCause, at: now, report });
  }

  /** A report as an agent answered it (the diagnose tool's JSON), from the named cluster. */
  rememberJson(json: Record<string, unknown>, cluster: string, now = Date.now()): void {
    const target = json.target as { namespace?: unknown; name?: unknown } | undefined;
    if (typeof target?.namespace !== 'string' || typeof target.name !== 'string') return;
    const rootCause = typeof json.rootCause === 'string' ? json.rootCause : null;
    const text = JSON.stringify({ ...json, cluster }, null, 2);
    this.keep({ namespace: target.namespace, name: target.name, rootCause, at: now, json: text, cluster });
  }

  private keep(kept: Kept): void {
    const key = keyOf(kept.namespace, kept.name, kept.cluster);
    this.byKey.delete(key);
    this.byKey.set(key, kept);
    for (const oldest of this.byKey.keys()) {
      if (this.byKey.size <= this.max) break;
      this.byKey.delete(oldest);
    }
  }

  get(namespace: string, name: string): Report | undefined {
    return this.byKey.get(keyOf(namespace, name, undefined))?.report;
  }

  list(): Array<{ namespace: string; name: string; rootCause: string | null; at: number; cluster?: string }> {
    return [...this.byKey.values()].map(({ namespace, name, rootCause, at, cluster }) => ({
      namespace,
      name,
      rootCause,
      at,
      ...(cluster ? { cluster } : {}),
    }));
  }

  /** The report as `diagnose -o json` prints it; `cluster`: as that cluster's agent answered it. */
  json(namespace: string, name: string, cluster?: string): string | undefined {
    const kept = this.byKey.get(keyOf(namespace, name, cluster));
    if (!kept) return undefined;
    return kept.json ?? (kept.report ? renderJsonReport(kept.report) : undefined);
  }

  /** The clusters whose agents answered a diagnosis of namespace/name, oldest first. */
  clustersOf(namespace: string, name: string): string[] {
    return [...this.byKey.values()].flatMap((k) =>
      k.cluster !== undefined && k.namespace === namespace && k.name === name ? [k.cluster] : [],
    );
  }
}

const keyOf = (namespace: string, name: string, cluster: string | undefined) =>
  cluster === undefined ? `${namespace}/${name}` : `${cluster}:${namespace}/${name}`;
