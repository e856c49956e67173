/**
 * 1,000 of 10,000 InferenceServices fail at once (their Ready condition turns False through the
 * simulator's API) under `serve` (watcher, incident worker, fake Slack), alerts.unreadyAfter 1s:
 * the API requests the bot makes (simulator log, from the first flip until it is quiet) and their
 * peak per second, the time from the first flip (they take a second or two to set) to the grouped post in the alerts channel and to
 * the post listing all of them, and how many top-level posts there were. The anchor is what 1,000
 * separate diagnoses cost: one `diagnose` of a failing service × 1,000. The bench first tries the
 * config keys `kubernetes.qps`/`burst`; a config that does not know them yet runs without.
 */
import type { FakeSlackApi } from '../test/support/fake-slack-api.js';
import type { BenchContext } from './bench-context.js';
import type { BenchRow, TableLine } from './bench-row.js';
import { cliDiagnosis } from './cli-diagnosis.js';
import { notFromBench, setReady } from './flip-ready.js';
import { isvcName, writeIsvcDataset } from './isvc-dataset.js';
import { diagnosisRequests } from './request-log-reader.js';
import { peakPerSecond } from './request-waves.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';
import { startSimulatorProcess, type SimulatorProcess } from './simulator-process.js';
import { formatSummary, ms, summary, count, times } from './summary.js';
import { serviceCount } from './row-watcher-rss.js';
import { watcherHolding } from './watcher-ready.js';
import path from 'node:path';

/**
 * The bucket lets at most burst + qps requests go in any second; the log holds their arrival times
 * at the simulator, and a request's way there varies by a few ms, so a 1 s window of arrivals can
 * hold a request or two more than the bucket released in any 1 s (hence the 2% in the target).
 */
export const QPS = { qps: 50, burst: 100 };

interface StormRun {
  requests: number;
  /** How long setting all of them not Ready took (times are from its start). */
  flipMs: number;
  peak: number;
  firstPostMs: number;
  allListedMs: number | null;
  listed: number;
  topLevel: number;
}

async function startStormBot(
  ctx: BenchContext,
  sim: SimulatorProcess,
  channel: string,
): Promise<{ bot: ServeProcess; limited: boolean }> {
  const config = { alerts: { channel, unreadyAfter: '1s' }, namespaces: ['default'] };
  try {
    return {
      bot: await startServeProcess(ctx, { kubeconfig: sim.kubeconfig, config: { ...config, kubernetes: QPS } }),
      limited: true,
    };
  } catch (error) {
    if (!/kubernetes/.test(String((error as Error).message))) throw error;
    return { bot: await startServeProcess(ctx, { kubeconfig: sim.kubeconfig, config }), limited: false };
  }
}

const listedIn = (text: string) => Number(/^🔴 (\d+) InferenceServices? not ready/u.exec(text)?.[1] ?? 0);

async function stormRun(
  ctx: BenchContext,
  slack: FakeSlackApi,
  sim: SimulatorProcess,
  failing: string[],
  run: number,
): Promise<StormRun & { limited: boolean }> {
  const channel = `CSTORM${run}`;
  const { bot, limited } = await startStormBot(ctx, sim, channel);
  try {
    await watcherHolding(bot, serviceCount(ctx));
    const flipAt = Date.now();
    const failedAt = performance.now();
    await setReady(sim.url, failing, false);
    const flipMs = performance.now() - failedAt;
    const roots = () =>
      slack.calls.filter((c) => c.body.channel === channel && c.method === 'chat.postMessage' && !c.body.thread_ts);
    const listed = () =>
      Math.max(
        0,
        ...slack.calls
          .filter((c) => c.body.channel === channel && !c.body.thread_ts)
          .map((c) => listedIn(String(c.body.text))),
      );
    await slack.waitFor(() => roots().length > 0, 120_000);
    const firstPostMs = performance.now() - failedAt;
    const cap = ctx.options.quick ? 60_000 : 240_000;
    const all = await slack
      .waitFor(() => listed() >= failing.length, cap)
      .then(
        () => performance.now() - failedAt,
        () => null,
      );
    await sim.log.quiet(2000, 60_000);
    const requests = diagnosisRequests(sim.log.since(flipAt)).filter(notFromBench);
    return {
      requests: requests.length,
      peak: peakPerSecond(requests),
      flipMs,
      firstPostMs,
      allListedMs: all,
      listed: listed(),
      topLevel: roots().length,
      limited,
    };
  } finally {
    await bot.stop();
    await setReady(sim.url, failing, true);
  }
}

function lines(runs: Array<StormRun & { limited: boolean }>, failing: number, single: number): TableLine[] {
  const total = summary(runs.map((r) => r.requests));
  const peak = summary(runs.map((r) => r.peak));
  const first = summary(runs.map((r) => r.firstPostMs));
  const limited = runs.every((r) => r.limited);
  const onePost = runs.every((r) => r.topLevel === 1);
  const ratios = summary(runs.map((r) => r.requests / (failing * single)));
  return [
    {
      row: `${failing} failing at once: API requests`,
      figure: formatSummary(total, count),
      anchor: `${failing} × one diagnosis (${single}) = ${failing * single}`,
      ratio: formatSummary(ratios, times),
      target: "< 1× (diagnoses reuse the informer's objects)",
      met: ratios.median < 1,
    },
    {
      row: `${failing} failing at once: peak API req/s`,
      figure: `${formatSummary(peak, count)} req/s`,
      anchor: limited ? `qps ${QPS.qps}, burst ${QPS.burst}` : 'no kubernetes.qps setting yet',
      ratio: limited ? formatSummary(summary(runs.map((r) => r.peak / QPS.qps)), times) : '—',
      target: `≤ qps + burst (${QPS.qps + QPS.burst}; +2% for arrival jitter)`,
      met: limited ? peak.median <= Math.floor((QPS.qps + QPS.burst) * 1.02) : false,
    },
    {
      row: `${failing} failing at once: grouped post`,
      figure: `${formatSummary(first, ms)}, ${runs.map((r) => r.topLevel).join('/')} top-level post(s)`,
      anchor: 'alerts.unreadyAfter 1 s',
      ratio: formatSummary(summary(runs.map((r) => r.firstPostMs / 1000)), times),
      target: 'one post < 30 s',
      met: onePost && first.median < 30_000,
    },
  ];
}

export const stormRow: BenchRow = {
  id: 'storm',
  title: 'many InferenceServices failing at once under `serve` (watcher + incident worker)',
  async run(ctx) {
    const total = serviceCount(ctx);
    const failing = Array.from({ length: total / 10 }, (_, i) => isvcName(i * 10));
    const sim = await startSimulatorProcess(
      writeIsvcDataset(path.join(ctx.workDir, `isvcs-storm-${total}`), total),
      0,
      ctx.workDir,
    );
    const slack = await ctx.slack();
    const runs: Array<StormRun & { limited: boolean }> = [];
    let single = 0;
    try {
      for (let run = 0; run < ctx.options.runs; run += 1) {
        const r = await stormRun(ctx, slack, sim, failing, run);
        ctx.detail(
          `run ${run + 1}: ${r.requests} requests, peak ${r.peak} req/s, failing set in ${ms(r.flipMs)}, grouped post ${ms(r.firstPostMs)} after the first failed, ${r.allListedMs === null ? `only ${r.listed} listed at the cap` : `all ${failing.length} listed after ${ms(r.allListedMs)}`}, ${r.topLevel} top-level post(s)`,
        );
        runs.push(r);
      }
      await setReady(sim.url, failing.slice(0, 1), false);
      single = (await cliDiagnosis(sim, { namespace: 'default', name: failing[0]! })).apiRequests;
    } finally {
      await sim.stop();
    }
    return lines(runs, failing.length, single);
  },
};
