/**
 * The last report of each InferenceService this process diagnosed (a tool call, a status row),
 * served as the resource `isvc-doctor://reports/NAMESPACE/NAME`. Bounded: the oldest goes first.
 * The multi-cluster web process keeps the JSON its agents answered with (and the cluster read).
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
    const key = `${kept.namespace}/${kept.name}`;
    this.byKey.delete(key);
    this.byKey.set(key, kept);
    for (const oldest of this.byKey.keys()) {
      if (this.byKey.size <= this.max) break;
      this.byKey.delete(oldest);
    }
  }

  get(namespace: string, name: string): Report | undefined {
    return this.byKey.get(`${namespace}/${name}`)?.report;
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

  /** The report as `diagnose -o json` prints it. */
  json(namespace: string, name: string): string | undefined {
    const kept = this.byKey.get(`${namespace}/${name}`);
    if (!kept) return undefined;
    return kept.json ?? (kept.report ? renderJsonReport(kept.report) : undefined);
  }
}
