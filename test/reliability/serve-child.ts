/**
 * What the requests, fuzz, authorization and faults parts of the reliability suite drive: the real
 * `isvc-doctor serve` as a child process (dist/, as production runs it) against the Slack stand-in,
 * the cluster simulator (in this process, or as a child of its own that can be SIGSTOPped) and a
 * Redis; its RSS read from /proc/PID/status; its log lines kept; signed requests to it; and the
 * figure lines the suite prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { stringify } from 'yaml';
import { startBotProcess, type BotProcess } from '../../src/playground/bot-process.js';
import { writeKubeconfigFile } from '../../src/simulator/kubeconfig-file.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { ensureFreshDist } from '../support/fresh-dist.js';
import { signedHeaders } from '../support/slack-signing.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';

export const BOT_TOKEN = 'xoxb-fake_reliability';

/** One figure of the suite, on a line of its own in CI's log. */
export function figure(name: string, value: number | string): void {
  process.stdout.write(`reliability: ${name} ${value}\n`);
}

export function workDir(name: string): string {
  return mkdtempSync(path.join(tmpdir(), `isvc-doctor-rel-${name}-`));
}

export interface ServeChild {
  url: string;
  eventsUrl: string;
  pid: number;
  child: ChildProcess;
  queueName: string;
  logs: Array<Record<string, unknown>>;
  /** Resident set size now, MB, from /proc/PID/status. */
  rssMb(): number;
  /** Log lines the process guard wrote (unhandled rejections, uncaught exceptions). */
  guardLines(): Array<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(graceMs?: number): Promise<void>;
}

export interface ServeChildOptions {
  dir: string;
  secret: string;
  slackApiUrl: string;
  redisUrl: string;
  kubeServer: string;
  /** Merged into the config file. */
  file?: Record<string, unknown>;
  queueName?: string;
  env?: Record<string, string>;
}

export function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export async function startServeChild(o: ServeChildOptions): Promise<ServeChild> {
  const queueName = o.queueName ?? `rel-${randomUUID().slice(0, 8)}`;
  const kubeconfig = path.join(o.dir, `kubeconfig-${queueName}`);
  await writeKubeconfigFile(kubeconfig, o.kubeServer);
  const configFile = path.join(o.dir, `config-${queueName}-${randomUUID().slice(0, 4)}.yaml`);
  const file = {
    namespaces: ['default', 'kserve-test'],
    ...o.file,
    queue: { name: queueName, concurrency: 4, attempts: 3, backoffMs: 100, ...((o.file?.queue as object) ?? {}) },
  };
  writeFileSync(configFile, stringify(file));
  const logs: Array<Record<string, unknown>> = [];
  let resolveExit!: (v: { code: number | null; signal: NodeJS.Signals | null }) => void;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => (resolveExit = r));
  const bot: BotProcess = await startBotProcess({
    configFile,
    env: {
      SLACK_API_URL: o.slackApiUrl,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: o.secret,
      REDIS_URL: o.redisUrl,
      KUBECONFIG: kubeconfig,
      PORT: '0',
      METRICS_PORT: '0',
      SHUTDOWN_TIMEOUT_MS: '3000',
      ...o.env,
    },
    onLog: (line) => void logs.push(line as Record<string, unknown>),
    onExit: () => undefined,
    startTimeoutMs: 60_000,
  });
  bot.child.once('exit', (code, signal) => resolveExit({ code, signal }));
  return {
    url: bot.url,
    eventsUrl: `${bot.url}/slack/events`,
    pid: bot.child.pid!,
    child: bot.child,
    queueName,
    logs,
    rssMb: () => rssMbOf(bot.child.pid!),
    guardLines: () => logs.filter((l) => /^(unhandled rejection|uncaught exception)/.test(String(l.msg))),
    exited,
    stop: (graceMs = 8000) => bot.stop(graceMs),
  };
}

/** A serve child against the Slack stand-in and the simulator serving one scenario, as most parts start. */
export interface BotUnderTest {
  slack: FakeSlackApi;
  sim: RunningSimulator;
  bot: ServeChild;
  /** Stops the child, removes its queue's Redis keys, closes the simulator and the stand-in, removes `dir`. */
  stop(): Promise<void>;
}

export async function startBotUnderTest(o: {
  dir: string;
  secret: string;
  /** A folder under test/scenarios. */
  scenario: string;
  /** Calls the stand-in keeps (its default otherwise). */
  keepCalls?: number;
  /** Set up on the stand-in before the child starts (user groups, call hooks). */
  prepare?: (slack: FakeSlackApi) => void;
  file?: Record<string, unknown>;
  env?: Record<string, string>;
}): Promise<BotUnderTest> {
  await ensureFreshDist();
  const slack = await startFakeSlackApi(o.keepCalls !== undefined ? { keepCalls: o.keepCalls } : {});
  o.prepare?.(slack);
  const sim = await startSimulator({
    snapshot: await loadSnapshot(path.resolve('test/scenarios', o.scenario)),
  });
  const bot = await startServeChild({
    dir: o.dir,
    secret: o.secret,
    slackApiUrl: slack.apiUrl,
    redisUrl: testRedisUrl(),
    kubeServer: sim.url,
    ...(o.file ? { file: o.file } : {}),
    ...(o.env ? { env: o.env } : {}),
  });
  return {
    slack,
    sim,
    bot,
    async stop() {
      await bot.stop();
      await deleteRedisKeys(testRedisUrl(), `bull:${bot.queueName}:*`);
      await sim.close();
      await slack.close();
      rmSync(o.dir, { recursive: true, force: true });
    },
  };
}

/** A simulator in a process of its own (`isvc-doctor simulate`), so a test can SIGSTOP (black-hole) or SIGKILL it. */
export async function startSimulatorChild(
  snapshot: string,
  options: { latencyMs?: number; port?: number } = {},
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      path.resolve('dist/src/cli/isvc-doctor.js'),
      'simulate',
      '--snapshot',
      snapshot,
      '--port',
      String(options.port ?? 0),
      ...(options.latencyMs ? ['--latency', String(options.latencyMs)] : []),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`simulate exited ${code}`)));
  });
  child.stderr!.resume();
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }),
  };
}

/** POSTs a signed body (form or JSON) to the bot. */
export async function postSigned(
  eventsUrl: string,
  secret: string,
  body: string,
  options: { contentType?: string; timestamp?: number; headers?: Record<string, string> } = {},
): Promise<{ status: number; ms: number }> {
  const headers = { ...signedHeaders(secret, body, options.timestamp, options.contentType), ...options.headers };
  const started = performance.now();
  const res = await fetch(eventsUrl, { method: 'POST', headers, body });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

/** Runs `tasks` with at most `concurrency` at once. */
export async function bounded<T>(
  items: T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
