/**
 * The watcher role's whole-process memory, read from outside (/proc/PID/status of the child):
 * `serve --role watcher` holding 10,000 InferenceServices, next to the same role watching an empty
 * namespace. VmRSS once it holds them all and RSS has settled, and VmHWM (the peak of its first
 * list). A fresh process for each run.
 */
import path from 'node:path';
import type { BenchContext } from './bench-context.js';
import type { BenchRow } from './bench-row.js';
import { sharedIsvcSimulator, writeIsvcDataset } from './isvc-dataset.js';
import { procMemory, settledMemory, type ProcMemory } from './proc-memory.js';
import { startServeProcess } from './serve-process.js';
import { startSimulatorProcess, type SimulatorProcess } from './simulator-process.js';
import { formatSummary, mb, summary, times } from './summary.js';
import { watcherHolding } from './watcher-ready.js';

export const serviceCount = (ctx: BenchContext): number => (ctx.options.quick ? 1000 : 10_000);

async function watcherMemory(ctx: BenchContext, sim: SimulatorProcess, holding: number): Promise<ProcMemory> {
  const serve = await startServeProcess(ctx, {
    role: 'watcher',
    kubeconfig: sim.kubeconfig,
    config: { alerts: { channel: 'C0ALERTS', unreadyAfter: '5m' }, namespaces: ['default'] },
  });
  try {
    await watcherHolding(serve, holding);
    const settled = await settledMemory(serve.pid);
    return { rssMb: settled.rssMb, hwmMb: procMemory(serve.pid).hwmMb };
  } finally {
    await serve.stop();
  }
}

export const watcherRssRow: BenchRow = {
  id: 'watcher-rss',
  title: 'watcher role (`serve --role watcher`), whole-process RSS from /proc/PID/status',
  async run(ctx) {
    const count = serviceCount(ctx);
    const full = await sharedIsvcSimulator(ctx, count);
    const empty = await startSimulatorProcess(
      writeIsvcDataset(path.join(ctx.workDir, 'isvcs-none'), 0),
      0,
      ctx.workDir,
    );
    const holding: ProcMemory[] = [];
    const none: ProcMemory[] = [];
    try {
      for (let run = 0; run < ctx.options.runs; run += 1) {
        holding.push(await watcherMemory(ctx, full, count));
        none.push(await watcherMemory(ctx, empty, 0));
      }
    } finally {
      await empty.stop();
    }
    const rss = summary(holding.map((m) => m.rssMb));
    ctx.detail(
      `holding ${count}: VmRSS ${holding.map((m) => mb(m.rssMb)).join(', ')}, VmHWM ${holding.map((m) => mb(m.hwmMb)).join(', ')}`,
    );
    ctx.detail(
      `holding none: VmRSS ${none.map((m) => mb(m.rssMb)).join(', ')}, VmHWM ${none.map((m) => mb(m.hwmMb)).join(', ')}`,
    );
    return [
      {
        row: `watcher RSS holding ${count.toLocaleString('en-US')} InferenceServices`,
        figure: `${formatSummary(rss, mb)} (peak ${formatSummary(summary(holding.map((m) => m.hwmMb)), mb)})`,
        anchor: `none: ${formatSummary(summary(none.map((m) => m.rssMb)), mb)}`,
        ratio: formatSummary(summary(holding.map((m, i) => m.rssMb / none[i]!.rssMb)), times),
        target: '< 150 MB',
        met: rss.median < 150,
      },
    ];
  },
};
