/**
 * Time spent before the work starts: `isvc-doctor --help` vs `node -e 0` (the floor of any Node
 * process on this machine), and a whole `diagnose` process vs its own diagnosis time
 * (stats.durationMs) + 150 ms, against the simulator at 20 ms.
 */
import path from 'node:path';
import type { BenchContext } from './bench-context.js';
import type { BenchRow, TableLine } from './bench-row.js';
import { cliBin, REPO_ROOT } from './cli-bin.js';
import { cliDiagnosis } from './cli-diagnosis.js';
import { startSimulatorProcess } from './simulator-process.js';
import { formatSummary, ms, summary, times } from './summary.js';
import { timedRun } from './timed-run.js';

const spawnsPerRun = (ctx: BenchContext) => (ctx.options.quick ? 3 : 5);
const LATENCY_MS = 20;
const SCENARIO = 'storage-uri-not-found';

async function helpVsNode(ctx: BenchContext): Promise<TableLine> {
  const help: number[] = [];
  const node: number[] = [];
  await timedRun(process.execPath, [cliBin(), '--help']); // file cache warm
  for (let run = 0; run < ctx.options.runs; run += 1) {
    const h: number[] = [];
    const n: number[] = [];
    for (let i = 0; i < spawnsPerRun(ctx); i += 1) {
      n.push((await timedRun(process.execPath, ['-e', '0'])).ms);
      const r = await timedRun(process.execPath, [cliBin(), '--help']);
      if (r.code !== 0) throw new Error(`isvc-doctor --help exited ${r.code}`);
      h.push(r.ms);
    }
    help.push(summary(h).median);
    node.push(summary(n).median);
  }
  const ratio = summary(help.map((h, i) => h / node[i]!));
  ctx.detail(
    `--help ${help.map((v) => ms(v)).join(', ')}; node -e 0 ${node.map((v) => ms(v)).join(', ')} (median of ${spawnsPerRun(ctx)} spawns per run)`,
  );
  return {
    row: 'isvc-doctor --help vs node -e 0',
    figure: `--help ${formatSummary(summary(help), ms)}`,
    anchor: `node -e 0 ${formatSummary(summary(node), ms)}`,
    ratio: formatSummary(ratio, times),
    target: '≤ 2×',
    met: ratio.median <= 2,
  };
}

async function processVsOwnTime(ctx: BenchContext): Promise<TableLine> {
  const sim = await startSimulatorProcess(path.join(REPO_ROOT, 'test/scenarios', SCENARIO), LATENCY_MS, ctx.workDir);
  const walls: number[] = [];
  const anchors: number[] = [];
  try {
    const target = { namespace: 'default', name: 'sklearn-iris' };
    await cliDiagnosis(sim, target);
    for (let run = 0; run < ctx.options.runs * 2; run += 1) {
      const d = await cliDiagnosis(sim, target);
      walls.push(d.ms);
      anchors.push(d.durationMs + 150);
    }
  } finally {
    await sim.stop();
  }
  const ratio = summary(walls.map((w, i) => w / anchors[i]!));
  return {
    row: `diagnose process vs its own durationMs + 150 ms (@${LATENCY_MS} ms)`,
    figure: `process ${formatSummary(summary(walls), ms)}`,
    anchor: `durationMs+150 ${formatSummary(summary(anchors), ms)}`,
    ratio: formatSummary(ratio, times),
    target: '≤ 1.5×',
    met: ratio.median <= 1.5,
  };
}

export const loadingRow: BenchRow = {
  id: 'loading',
  title: 'time spent loading modules (whole processes, spawn to exit)',
  run: async (ctx) => [await helpVsNode(ctx), await processVsOwnTime(ctx)],
};
