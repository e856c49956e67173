/**
 * The diagnosis rows' shared measurement. For each scenario and simulator latency: one
 * `isvc-doctor simulate` process; the kubectl runbook as a script (the anchor) and its shortest
 * path, the CLI (`diagnose -o json`, a new process each time) and the bot (`serve`, a signed slash
 * command each time) take turns against it, N runs each, the order rotating from run to run so that
 * a busy moment of the machine does not fall on one side only. Every run is checked: the CLI and
 * the bot must report the scenario's root cause, the runbook's output must show its evidence. The
 * simulator's request log gives each side's API requests and dependent waves.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './bench-context.js';
import { rowSelected } from './bench-row.js';
import { botDiagnosis } from './bot-diagnosis.js';
import { cliDiagnosis } from './cli-diagnosis.js';
import { REPO_ROOT } from './cli-bin.js';
import { kubectlPath } from './kubectl-path.js';
import { RUNBOOKS, type Runbook } from './kubectl-runbooks.js';
import { diagnosisRequests, type LoggedRequest } from './request-log-reader.js';
import { requestWaves } from './request-waves.js';
import { kubectlEnv, runRunbook } from './run-runbook.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';
import { startSimulatorProcess, type SimulatorProcess } from './simulator-process.js';
import { summary } from './summary.js';
import { timedRun } from './timed-run.js';

/** One side's samples: wall time, API requests and waves per run (CLI also stats.durationMs and stats.apiRequests). */
export interface SideSamples {
  ms: number[];
  requests: number[];
  waves: number[];
  durationMs: number[];
  selfCounted: number[];
}

export interface ComparisonUnit {
  scenario: string;
  latencyMs: number;
  /** The guide as a script: the anchor. */
  runbook: SideSamples;
  shortest: SideSamples;
  cli: SideSamples | null;
  bot: SideSamples | null;
}

interface ComparisonParts {
  cli: boolean;
  bot: boolean;
}

/** Simulator latencies of the diagnosis rows; the request counts and waves are read at the largest. */
export const DIAGNOSIS_LATENCIES = [20, 100];
export const WAVES_LATENCY = 100;

const emptySide = (): SideSamples => ({ ms: [], requests: [], waves: [], durationMs: [], selfCounted: [] });

/**
 * The comparison the selected rows need, measured once for all of them: the CLI and bot rows and
 * the requests row share the runbook's samples (the requests row alone runs at 100 ms only).
 */
export function sharedComparison(ctx: BenchContext): Promise<ComparisonUnit[]> {
  const cli = rowSelected(ctx, 'cli-runbook');
  const bot = rowSelected(ctx, 'bot-runbook');
  const requests = rowSelected(ctx, 'requests');
  const latencies = cli || bot ? DIAGNOSIS_LATENCIES : [WAVES_LATENCY];
  return ctx.memo('runbook-comparison', async () => {
    const units: ComparisonUnit[] = [];
    ctx.detail(`kubectl: ${kubectlPath()}`);
    for (const latencyMs of latencies) {
      for (const runbook of ctx.options.quick ? RUNBOOKS.slice(0, 1) : RUNBOOKS) {
        const unit = await measureUnit(ctx, runbook, latencyMs, { cli: cli || requests, bot: bot || requests });
        ctx.detail(describeUnit(unit));
        units.push(unit);
      }
    }
    return units;
  });
}

async function measureUnit(
  ctx: BenchContext,
  runbook: Runbook,
  latencyMs: number,
  parts: ComparisonParts,
): Promise<ComparisonUnit> {
  const sim = await startSimulatorProcess(
    path.join(REPO_ROOT, 'test/scenarios', runbook.scenario),
    latencyMs,
    ctx.workDir,
  );
  let bot: ServeProcess | null = null;
  try {
    const cacheDir = path.join(ctx.workDir, `kubectl-cache-${sim.pid}`);
    mkdirSync(cacheDir, { recursive: true });
    const { env, flags } = kubectlEnv(sim.kubeconfig, cacheDir);
    await timedRun(kubectlPath(), ['api-resources', ...flags], env); // a person's discovery cache is warm
    if (parts.cli) await cliDiagnosis(sim, runbook.target); // and so is the CLI's (its discovery hint file), the same way
    const slack = await ctx.slack();
    if (parts.bot) {
      bot = await startServeProcess(ctx, { kubeconfig: sim.kubeconfig });
      await botDiagnosis(slack, bot, sim, runbook.target, runbook.rootCause); // a running bot is warm
    }
    const unit: ComparisonUnit = {
      scenario: runbook.scenario,
      latencyMs,
      runbook: emptySide(),
      shortest: emptySide(),
      cli: parts.cli ? emptySide() : null,
      bot: bot ? emptySide() : null,
    };
    const typed = (form: 'script' | 'shortest', side: SideSamples) => async () => {
      const sentAt = Date.now();
      const run = await runRunbook(runbook, form, sim.kubeconfig, cacheDir);
      await sim.log.quiet(100);
      record(side, run.ms, diagnosisRequests(sim.log.since(sentAt)));
    };
    const sides: Array<() => Promise<void>> = [typed('script', unit.runbook), typed('shortest', unit.shortest)];
    if (unit.cli) sides.push(() => measureCli(unit.cli!, sim, runbook));
    if (bot && unit.bot)
      sides.push(async () =>
        botSample(unit.bot!, await botDiagnosis(slack, bot!, sim, runbook.target, runbook.rootCause)),
      );
    for (let run = 0; run < ctx.options.runs; run += 1) {
      for (let i = 0; i < sides.length; i += 1) await sides[(run + i) % sides.length]!();
    }
    return unit;
  } finally {
    await bot?.stop();
    await sim.stop();
  }
}

async function measureCli(side: SideSamples, sim: SimulatorProcess, runbook: Runbook): Promise<void> {
  const run = await cliDiagnosis(sim, runbook.target);
  if (run.rootCause !== runbook.rootCause)
    throw new Error(`${runbook.scenario}: the CLI reported ${run.rootCause}, expected ${runbook.rootCause}`);
  record(side, run.ms, run.requests);
  side.durationMs.push(run.durationMs);
  side.selfCounted.push(run.apiRequests);
}

const botSample = (side: SideSamples, d: { ms: number; requests: LoggedRequest[] }) => record(side, d.ms, d.requests);

function record(side: SideSamples, ms: number, requests: LoggedRequest[]): void {
  side.ms.push(ms);
  side.requests.push(requests.length);
  side.waves.push(requestWaves(requests));
}

function describeUnit(u: ComparisonUnit): string {
  const side = (label: string, s: SideSamples | null) =>
    s
      ? `${label} ${Math.round(summary(s.ms).median)} ms (${s.requests[0]} req, ${s.waves[0]} waves${s.selfCounted.length ? `, self-counted ${s.selfCounted[0]}` : ''})`
      : null;
  return [
    `${u.scenario} @${u.latencyMs} ms:`,
    side('script', u.runbook),
    side('shortest', u.shortest),
    side('cli', u.cli),
    side('bot', u.bot),
  ]
    .filter(Boolean)
    .join('  ');
}
