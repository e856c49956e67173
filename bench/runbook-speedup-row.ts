/**
 * A row that compares one side of the runbook comparison (the CLI or the bot) with the kubectl
 * runbook script, at each latency: medians of both, and the ratio per scenario and run. The same
 * ratio against the runbook's shortest path is printed as a detail.
 */
import type { BenchRow, TableLine } from './bench-row.js';
import { DIAGNOSIS_LATENCIES, sharedComparison, type ComparisonUnit, type SideSamples } from './runbook-comparison.js';
import { formatSummary, ms, summary, times } from './summary.js';

type Side = (u: ComparisonUnit) => SideSamples | null;

/** Anchor time / side time, per scenario and run, and the medians of both sides. */
function speedup(units: ComparisonUnit[], side: Side, latencyMs: number, anchor: (u: ComparisonUnit) => SideSamples) {
  const at = units.filter((u) => u.latencyMs === latencyMs && side(u));
  return {
    ratio: summary(at.flatMap((u) => anchor(u).ms.map((r, i) => r / side(u)!.ms[i]!))),
    figure: summary(at.flatMap((u) => side(u)!.ms)),
    anchor: summary(at.flatMap((u) => anchor(u).ms)),
    scenarios: at.length,
  };
}

export function runbookSpeedupRow(options: {
  id: string;
  title: string;
  side: Side;
  what: string;
  target: number;
}): BenchRow {
  const { side, what, target } = options;
  return {
    id: options.id,
    title: options.title,
    async run(ctx): Promise<TableLine[]> {
      const units = await sharedComparison(ctx);
      for (const latency of DIAGNOSIS_LATENCIES) {
        const s = speedup(units, side, latency, (u) => u.shortest);
        ctx.detail(
          `@${latency} ms against the runbook's shortest path (${formatSummary(s.anchor, ms)}): shortest path ÷ ${what} ${formatSummary(s.ratio, times)}`,
        );
      }
      return DIAGNOSIS_LATENCIES.map((latency) => {
        const s = speedup(units, side, latency, (u) => u.runbook);
        return {
          row: `${what} diagnosis vs runbook @${latency} ms (${s.scenarios} scenario${s.scenarios === 1 ? '' : 's'})`,
          figure: `${what} ${formatSummary(s.figure, ms)}`,
          anchor: `runbook script ${formatSummary(s.anchor, ms)}`,
          ratio: `${formatSummary(s.ratio, times)} (runbook ÷ ${what})`,
          target: `≥ ${target}×`,
          met: s.ratio.median >= target,
        };
      });
    },
  };
}
