/**
 * Multi-cluster: one web process (no kubeconfig) and two agents (`--role agent --cluster
 * a|b`, each on its own simulator) against today's single process (`--role all`), in the same run,
 * on the same Redis and fake Slack. Two figures each: the Slack ack p99 of a burst of signed
 * commands (half to each cluster), and command-to-reply latency (the POST to the verdict replacing
 * "Diagnosing…", one command at a time). Run on its own: `npm run bench -- multi-cluster`.
 */
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FakeSlackApi } from '../test/support/fake-slack-api.js';
import { signedHeaders, slashCommandBody } from '../test/support/slack-signing.js';
import type { BenchContext } from './bench-context.js';
import type { BenchRow, TableLine } from './bench-row.js';
import { commandVerdicts } from './command-verdicts.js';
import { REPO_ROOT } from './cli-bin.js';
import type { ListeningProcess } from './listening-process.js';
import { startServeProcess, SIGNING_SECRET } from './serve-process.js';
import { startSimulatorProcess } from './simulator-process.js';
import { formatSummary, ms, percentile, summary, times } from './summary.js';
import { timedPost } from './timed-post.js';

const LATENCY_MS = 20;
let round = 0;

interface Setup {
  name: string;
  eventsUrl: string;
  /** The words a command ends with (`--cluster a`), by index. */
  suffix(i: number): string;
  processes: ListeningProcess[];
}

const verdicts = commandVerdicts;

async function waitVerdicts(
  slack: FakeSlackApi,
  from: number,
  channelPrefix: string,
  n: number,
  name: string,
): Promise<void> {
  await slack
    .waitFor(() => verdicts(slack, from, channelPrefix) >= n, 120_000)
    .catch(() => {
      const seen = slack.calls.slice(from).filter((c) => String(c.body.channel ?? '').startsWith(channelPrefix));
      const sample = seen.slice(0, 6).map((c) => `${c.method}: ${String(c.body.text ?? '').slice(0, 80)}`);
      throw new Error(
        `${name}: ${verdicts(slack, from, channelPrefix)} of ${n} verdicts; ${seen.length} calls, e.g. ${sample.join(' | ')}`,
      );
    });
}

async function ackBurst(slack: FakeSlackApi, s: Setup, n: number): Promise<number> {
  round += 1;
  const channelPrefix = `CMCA${round}X`;
  const prepared = Array.from({ length: n }, (_, i) => {
    const body = slashCommandBody({
      text: `diagnose model-${round}-${i}${s.suffix(i)}`,
      channel_id: `${channelPrefix}${i}`,
      user_id: `U${i}`,
    });
    return {
      body,
      headers: { ...signedHeaders(SIGNING_SECRET, body), 'content-length': String(Buffer.byteLength(body)) },
    };
  });
  const from = slack.calls.length;
  const agent = new http.Agent({ keepAlive: true, maxSockets: n });
  const results = await Promise.all(prepared.map((p) => timedPost(s.eventsUrl, p.body, p.headers, agent)));
  agent.destroy();
  const bad = results.filter((r) => r.status !== 200).length;
  if (bad > 0) throw new Error(`${s.name}: ${bad} of ${n} commands were not acknowledged with 200`);
  await waitVerdicts(slack, from, channelPrefix, n, s.name);
  return percentile(
    results.map((r) => r.ms),
    99,
  );
}

/** One command at a time: from the POST to its verdict. */
async function replyLatencies(slack: FakeSlackApi, s: Setup, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) {
    round += 1;
    const channel = `CMCR${round}X`;
    const body = slashCommandBody({
      text: `diagnose sklearn-iris -n default${s.suffix(i)}`,
      channel_id: channel,
      user_id: 'U0BENCH',
    });
    const from = slack.calls.length;
    const started = performance.now();
    const res = await fetch(s.eventsUrl, { method: 'POST', headers: signedHeaders(SIGNING_SECRET, body), body });
    await res.text();
    await waitVerdicts(slack, from, channel, 1, s.name);
    out.push(performance.now() - started);
  }
  return out;
}

async function setups(ctx: BenchContext): Promise<{ single: Setup; multi: Setup; stop(): Promise<void> }> {
  const scenario = path.join(REPO_ROOT, 'test/scenarios/storage-uri-not-found');
  const [simA, simB] = await Promise.all([
    startSimulatorProcess(scenario, LATENCY_MS, ctx.workDir),
    startSimulatorProcess(scenario, LATENCY_MS, ctx.workDir),
  ]);
  const started: ListeningProcess[] = [simA, simB];
  const stop = async () => {
    await Promise.all(started.map((p) => p.stop()));
  };
  try {
    const single = await startServeProcess(ctx, { kubeconfig: simA.kubeconfig });
    started.push(single);
    const queueName = `bench-mc-${randomUUID().slice(0, 8)}`;
    const config = { clusters: { a: {}, b: {} }, defaultCluster: 'a' };
    const agents = await Promise.all([
      startServeProcess(ctx, {
        role: 'agent',
        args: ['--cluster', 'a'],
        kubeconfig: simA.kubeconfig,
        queueName,
        config,
      }),
      startServeProcess(ctx, {
        role: 'agent',
        args: ['--cluster', 'b'],
        kubeconfig: simB.kubeconfig,
        queueName,
        config,
      }),
    ]);
    started.push(...agents);
    const web = await startServeProcess(ctx, { role: 'web', queueName, config });
    started.push(web);
    return {
      single: { name: 'single process', eventsUrl: single.eventsUrl, suffix: () => '', processes: [single] },
      multi: {
        name: 'web + 2 agents',
        eventsUrl: web.eventsUrl,
        suffix: (i) => ` --cluster ${i % 2 === 0 ? 'a' : 'b'}`,
        processes: [web, ...agents],
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export const multiClusterRow: BenchRow = {
  id: 'multi-cluster',
  title: 'Multi-cluster: one web process and two agents vs one process (ack p99, command-to-reply)',
  async run(ctx) {
    if (ctx.options.quick && !ctx.options.rows.includes('multi-cluster')) {
      return [
        {
          row: 'Multi-cluster ack p99 and command-to-reply',
          figure: 'skipped in --quick',
          anchor: '`npm run bench -- multi-cluster`',
          ratio: '-',
          target: '≤ 1.1× single',
          met: null,
        },
      ];
    }
    const slack = await ctx.slack();
    const burst = ctx.options.quick ? 50 : 200;
    const sequential = ctx.options.quick ? 5 : 20;
    const { single, multi, stop } = await setups(ctx);
    const ack = { single: [] as number[], multi: [] as number[] };
    const reply = { single: [] as number[], multi: [] as number[] };
    try {
      // warm-up: one burst and one command each
      for (const s of [single, multi]) {
        await ackBurst(slack, s, burst);
        await replyLatencies(slack, s, 1);
      }
      for (let run = 0; run < ctx.options.runs; run += 1) {
        for (const s of run % 2 === 0 ? [single, multi] : [multi, single]) {
          const key = s === single ? 'single' : 'multi';
          ack[key].push(await ackBurst(slack, s, burst));
          reply[key].push(...(await replyLatencies(slack, s, sequential)));
        }
      }
    } finally {
      await stop();
    }
    ctx.detail(`ack p99 per run: web+agents ${ack.multi.map(ms).join(', ')}; single ${ack.single.map(ms).join(', ')}`);
    ctx.detail(
      `command-to-reply: web+agents p50 ${ms(percentile(reply.multi, 50))} p95 ${ms(percentile(reply.multi, 95))}; single p50 ${ms(percentile(reply.single, 50))} p95 ${ms(percentile(reply.single, 95))} (${reply.multi.length} commands each)`,
    );
    const ackRatio = summary(ack.multi.map((m, i) => m / ack.single[i]!));
    const replyRatio = percentile(reply.multi, 50) / percentile(reply.single, 50);
    const lines: TableLine[] = [
      {
        row: `Multi-cluster ack p99, ${burst} concurrent commands (half per cluster)`,
        figure: `web+2 agents ${formatSummary(summary(ack.multi), ms)}`,
        anchor: `single process ${formatSummary(summary(ack.single), ms)}`,
        ratio: formatSummary(ackRatio, times),
        target: '≤ 1.1× single',
        met: ackRatio.median <= 1.1,
      },
      {
        row: 'Multi-cluster command-to-reply (POST to verdict), one at a time',
        figure: `web+2 agents p50 ${ms(percentile(reply.multi, 50))}`,
        anchor: `single process p50 ${ms(percentile(reply.single, 50))}`,
        ratio: times(replyRatio),
        target: '≤ 1.1× single',
        met: replyRatio <= 1.1,
      },
    ];
    return lines;
  },
};
