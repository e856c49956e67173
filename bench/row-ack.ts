/**
 * Slack ack latency: 200 signed slash commands sent at once to the bot (`serve`, Bolt HTTP receiver,
 * its post-ack work on Redis and Slack included) and, alternately, to a bare Node HTTP server that
 * only checks the HMAC signature and answers 200 (bench/bare-hmac-server.ts), both processes of
 * their own, from the same load generator in the same run. Bodies are signed beforehand and sent
 * on fresh connections; a first burst at each warms it up. After a burst at the bot, the bench waits
 * until every one of its 200 diagnoses (names that do not exist) has its verdict, so that each burst
 * finds the bot idle.
 */
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeSlackApi } from '../test/support/fake-slack-api.js';
import { signedHeaders, slashCommandBody } from '../test/support/slack-signing.js';
import type { BenchContext } from './bench-context.js';
import type { BenchRow } from './bench-row.js';
import { commandVerdicts } from './command-verdicts.js';
import { REPO_ROOT } from './cli-bin.js';
import { startListening } from './listening-process.js';
import { SIGNING_SECRET, startServeProcess } from './serve-process.js';
import { startSimulatorProcess, type SimulatorProcess } from './simulator-process.js';
import { formatSummary, ms, percentile, summary, times } from './summary.js';
import { timedPost } from './timed-post.js';

const CONCURRENT = 200;
const LATENCY_MS = 20;
let round = 0;

async function burst(url: string): Promise<{ p99: number; channelPrefix: string }> {
  round += 1;
  const channelPrefix = `CACK${round}X`;
  const prepared = Array.from({ length: CONCURRENT }, (_, i) => {
    const body = slashCommandBody({
      text: `diagnose model-${round}-${i}`,
      channel_id: `${channelPrefix}${i}`,
      user_id: `U${i}`,
    });
    return {
      body,
      headers: { ...signedHeaders(SIGNING_SECRET, body), 'content-length': String(Buffer.byteLength(body)) },
    };
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
  const results = await Promise.all(prepared.map((p) => timedPost(url, p.body, p.headers, agent)));
  agent.destroy();
  const bad = results.filter((r) => r.status !== 200).length;
  if (bad > 0) throw new Error(`${bad} of ${CONCURRENT} commands were not acknowledged with 200`);
  return {
    p99: percentile(
      results.map((r) => r.ms),
      99,
    ),
    channelPrefix,
  };
}

/** Every command of the burst has its verdict (among the fake Slack's calls from index `from` on), and the simulator is quiet. */
async function drained(slack: FakeSlackApi, sim: SimulatorProcess, channelPrefix: string, from: number): Promise<void> {
  await slack
    .waitFor(() => commandVerdicts(slack, from, channelPrefix) >= CONCURRENT, 300_000)
    .catch(() => {
      throw new Error(
        `${commandVerdicts(slack, from, channelPrefix)} of ${CONCURRENT} commands had their verdict within 300 s`,
      );
    });
  await sim.log.quiet(500);
}

async function measure(ctx: BenchContext): Promise<{ bot: number[]; bare: number[] }> {
  const slack = await ctx.slack();
  const sim = await startSimulatorProcess(
    path.join(REPO_ROOT, 'test/scenarios/storage-uri-not-found'),
    LATENCY_MS,
    ctx.workDir,
  );
  const bot = await startServeProcess(ctx, { kubeconfig: sim.kubeconfig }).catch(async (e: unknown) => {
    await sim.stop();
    throw e;
  });
  const bare = await startListening(
    'bare HMAC server',
    process.execPath,
    [fileURLToPath(new URL('./bare-hmac-server.js', import.meta.url))],
    { PATH: process.env.PATH, SLACK_SIGNING_SECRET: SIGNING_SECRET },
  );
  const samples = { bot: [] as number[], bare: [] as number[] };
  try {
    const atBot = async () => {
      const from = slack.calls.length;
      const b = await burst(bot.eventsUrl);
      await drained(slack, sim, b.channelPrefix, from);
      return b.p99;
    };
    const atBare = async () => (await burst(bare.url)).p99;
    await atBot();
    await atBare();
    for (let run = 0; run < ctx.options.runs; run += 1) {
      const order = run % 2 === 0 ? [atBot, atBare] : [atBare, atBot];
      for (const side of order) (side === atBot ? samples.bot : samples.bare).push(await side());
    }
    return samples;
  } finally {
    await Promise.all([bot.stop(), bare.stop()]);
    await sim.stop();
  }
}

export const ackRow: BenchRow = {
  id: 'ack',
  title: `Slack ack p99, ${CONCURRENT} concurrent signed commands: the bot vs a bare Node HMAC server`,
  async run(ctx) {
    const { bot, bare } = await measure(ctx);
    const ratio = summary(bot.map((b, i) => b / bare[i]!));
    ctx.detail(`p99 per run: bot ${bot.map(ms).join(', ')}; bare ${bare.map(ms).join(', ')}`);
    return [
      {
        row: `Slack ack p99, ${CONCURRENT} concurrent signed commands`,
        figure: `bot ${formatSummary(summary(bot), ms)}`,
        anchor: `bare HMAC ${formatSummary(summary(bare), ms)}`,
        ratio: formatSummary(ratio, times),
        target: '≤ 1.5× bare',
        met: ratio.median <= 1.5,
      },
    ];
  },
};
