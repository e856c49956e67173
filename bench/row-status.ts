/**
 * `/isvc status` in a namespace holding 10,000 InferenceServices: the bot's (`serve`) memory growth
 * over idle, read from outside (/proc/PID/status: VmRSS once idle and settled after a `help`
 * command, then VmHWM reset and read again once the status post reached the fake Slack), and
 * whether its list requests were paged (`limit`, in the simulator's request log). A fresh bot per run.
 */
import type { BenchContext } from './bench-context.js';
import type { BenchRow, TableLine } from './bench-row.js';
import { postSignedCommand } from '../test/support/slack-signing.js';
import { sharedIsvcSimulator } from './isvc-dataset.js';
import { procMemory, resetPeak, settledMemory } from './proc-memory.js';
import { serviceCount } from './row-watcher-rss.js';
import { SIGNING_SECRET, startServeProcess } from './serve-process.js';
import type { SimulatorProcess } from './simulator-process.js';
import { formatSummary, mb, ms, summary, times } from './summary.js';

interface StatusRun {
  idleMb: number;
  growthMb: number;
  ms: number;
  lists: number;
  paged: number;
}

async function statusRun(ctx: BenchContext, sim: SimulatorProcess, run: number): Promise<StatusRun> {
  const slack = await ctx.slack();
  const bot = await startServeProcess(ctx, { kubeconfig: sim.kubeconfig });
  try {
    const channel = `CSTATUS${run}`;
    const send = (text: string) =>
      postSignedCommand(bot.eventsUrl, SIGNING_SECRET, {
        text,
        channel_id: channel,
        response_url: slack.responseUrl(channel),
      });
    await send('help');
    await slack.waitFor((calls) => calls.some((c) => c.method === 'response_url' && c.responseId === channel), 30_000);
    const idle = await settledMemory(bot.pid);
    resetPeak(bot.pid);
    const sentAt = Date.now();
    const started = performance.now();
    await send('status -n default');
    await slack.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.body.channel === channel &&
            c.method === 'chat.postMessage' &&
            /InferenceServices? in default/.test(String(c.body.text)),
        ),
      180_000,
    );
    const took = performance.now() - started;
    const peak = procMemory(bot.pid).hwmMb;
    await sim.log.quiet(300);
    const lists = sim.log.since(sentAt).filter((r) => r.resource === 'inferenceservices' && r.verb === 'list');
    return {
      idleMb: idle.rssMb,
      growthMb: peak - idle.rssMb,
      ms: took,
      lists: lists.length,
      paged: lists.filter((r) => r.query.limit !== undefined).length,
    };
  } finally {
    await bot.stop();
  }
}

export const statusRow: BenchRow = {
  id: 'status',
  title:
    '`/isvc status` in a namespace with 10,000 InferenceServices (bot memory from /proc, paging from the request log)',
  async run(ctx): Promise<TableLine[]> {
    const count = serviceCount(ctx);
    const sim = await sharedIsvcSimulator(ctx, count);
    const runs: StatusRun[] = [];
    for (let run = 0; run < ctx.options.runs; run += 1) runs.push(await statusRun(ctx, sim, run));
    const growth = summary(runs.map((r) => r.growthMb));
    const paged = runs.every((r) => r.lists > 0 && r.paged === r.lists);
    ctx.detail(
      `per run: growth ${runs.map((r) => mb(r.growthMb)).join(', ')}, answered in ${runs.map((r) => ms(r.ms)).join(', ')}, ${runs[0]!.lists} list requests, ${runs[0]!.paged} with limit`,
    );
    return [
      {
        row: `/isvc status, ${count.toLocaleString('en-US')} services: bot memory growth`,
        figure: `+${formatSummary(growth, mb)} peak over idle`,
        anchor: `idle ${formatSummary(summary(runs.map((r) => r.idleMb)), mb)}`,
        ratio: `${formatSummary(summary(runs.map((r) => r.growthMb / 50)), times)} of the target`,
        target: '< 50 MB',
        met: growth.median < 50,
      },
      {
        row: `/isvc status, ${count.toLocaleString('en-US')} services: lists paged`,
        figure: paged
          ? `yes (${runs[0]!.lists} list requests with limit)`
          : `no: ${runs[0]!.lists - runs[0]!.paged} of ${runs[0]!.lists} list requests without limit`,
        anchor: '—',
        ratio: '—',
        target: 'limit/continue',
        met: paged,
      },
    ];
  },
};
