/**
 * The last report of each InferenceService this process diagnosed (a tool call, a status row),
 * served as the resource `isvc-doctor://reports/NAMESPACE/NAME`. Bounded: the oldest goes first.
 */
import type { Report } from '../findings/types.js';
import { renderJsonReport } from '../render/json-report.js';

const MAX_REPORTS = 200;

export class LastReports {
  private readonly byKey = new Map<string, { report: Report; at: number }>();

  constructor(private readonly max = MAX_REPORTS) {}

  remember(report: Report, now = Date.now()): void {
    const key = `${report.target.namespace}/${report.target.name}`;
    this.byKey.delete(key);
    this.byKey.set(key, { report, at: now });
    for (const oldest of this.byKey.keys()) {
      if (this.byKey.size <= this.max) break;
      this.byKey.delete(oldest);
    }
  }

  get(namespace: string, name: string): Report | undefined {
    return this.byKey.get(`${namespace}/${name}`)?.report;
  }

  list(): Array<{ namespace: string; name: string; rootCause: string | null; at: number }> {
    return [...this.byKey.values()].map(({ report, at }) => ({
      namespace: report.target.namespace,
      name: report.target.name,
      rootCause: report.rootCause,
      at,
    }));
  }

  /** The report as `diagnose -o json` prints it. */
  json(namespace: string, name: string): string | undefined {
    const report = this.get(namespace, name);
    return report ? renderJsonReport(report) : undefined;
  }
}
