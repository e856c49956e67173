/**
 * API requests per diagnosis and dependent request waves, as the simulator saw them (its request
 * log, at 100 ms latency): the CLI (also its own stats.apiRequests), the bot (everything one slash
 * command caused, the remediation offer included), next to the kubectl runbook's.
 */
import type { BenchRow, TableLine } from './bench-row.js';
import { sharedComparison, WAVES_LATENCY, type ComparisonUnit, type SideSamples } from './runbook-comparison.js';
import { summary } from './summary.js';

type Pick = (s: SideSamples) => number[];

const selfCounted: Pick = (s) => s.selfCounted;

/** The worst scenario (largest median), with the range over scenarios. */
function worst(
  units: ComparisonUnit[],
  side: (u: ComparisonUnit) => SideSamples | null,
  pick: Pick,
): { max: number; min: number; scenario: string; variesAcrossRuns: boolean } {
  const per = units.map((u) => ({ scenario: u.scenario, s: summary(pick(side(u)!)) }));
  const top = per.reduce((a, b) => (b.s.median > a.s.median ? b : a));
  return {
    max: top.s.median,
    min: Math.min(...per.map((p) => p.s.median)),
    scenario: top.scenario,
    variesAcrossRuns: per.some((p) => p.s.min !== p.s.max),
  };
}

function line(
  row: string,
  units: ComparisonUnit[],
  side: (u: ComparisonUnit) => SideSamples | null,
  pick: Pick,
  target: number,
  unit: string,
): TableLine {
  const it = worst(units, side, pick);
  const anchor = worst(units, (u) => u.runbook, pick === selfCounted ? (s) => s.requests : pick);
  return {
    row,
    figure: `${it.max} ${unit} (${it.scenario}${it.min < it.max ? `; ${it.min}–${it.max} over scenarios` : ''}${it.variesAcrossRuns ? ', varies across runs' : ''})`,
    anchor: `runbook script ${anchor.max}`,
    ratio: `${(it.max / anchor.max).toFixed(2)}× runbook`,
    target: `≤ ${target}`,
    met: it.max <= target,
  };
}

export const requestsRow: BenchRow = {
  id: 'requests',
  title: `API requests per diagnosis and dependent request waves (simulator request log, ${WAVES_LATENCY} ms latency)`,
  async run(ctx) {
    const units = (await sharedComparison(ctx)).filter((u) => u.latencyMs === WAVES_LATENCY);
    const cli = (u: ComparisonUnit) => u.cli;
    const bot = (u: ComparisonUnit) => u.bot;
    for (const u of units) {
      const self = u.cli ? summary(u.cli.selfCounted).median : Number.NaN;
      const seen = u.cli ? summary(u.cli.requests).median : Number.NaN;
      if (self !== seen) ctx.detail(`${u.scenario}: the CLI counted ${self} requests, the simulator saw ${seen}`);
    }
    return [
      line('API requests per diagnosis (CLI stats.apiRequests)', units, cli, selfCounted, 10, 'req'),
      line('API requests per slash command (bot, simulator log)', units, bot, (s) => s.requests, 10, 'req'),
      line('dependent request waves (CLI)', units, cli, (s) => s.waves, 2, 'waves'),
      line('dependent request waves (bot command)', units, bot, (s) => s.waves, 2, 'waves'),
    ];
  },
};
