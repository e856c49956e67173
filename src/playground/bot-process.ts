/**
 * The real bot as a child process, exactly as production runs it: `isvc-doctor serve --config FILE`
 * in HTTP mode, configured only through its environment (SLACK_API_URL, SLACK_BOT_TOKEN,
 * SLACK_SIGNING_SECRET, REDIS_URL, KUBECONFIG, PORT). Resolves once it prints `listening on URL`;
 * its JSON log lines go to `onLog`; an exit the playground did not ask for goes to `onExit`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { packageRoot } from './package-root.js';

export interface BotLogLine {
  level: string;
  msg: string;
  time?: string;
  [field: string]: unknown;
}

export interface BotProcessOptions {
  configFile: string;
  env: Record<string, string>;
  onLog(line: BotLogLine): void;
  onExit(description: string): void;
  /** How long to wait for `listening on`, default 30 s. */
  startTimeoutMs?: number;
}

export interface BotProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export function botEntryPoint(): string {
  return path.join(packageRoot(), 'dist', 'src', 'cli', 'isvc-doctor.js');
}

export async function startBotProcess(options: BotProcessOptions): Promise<BotProcess> {
  const entry = botEntryPoint();
  if (!existsSync(entry))
    throw new Error(`${entry} is missing: build first (npm run build, or npm start, which builds)`);
  const child = spawn(process.execPath, [entry, 'serve', '--config', options.configFile], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // its own process group: a Ctrl-C in the terminal reaches the playground, which stops the bot in order
    detached: true,
  });
  let stopping = false;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the bot did not start within ${(options.startTimeoutMs ?? 30_000) / 1000} s`)),
      options.startTimeoutMs ?? 30_000,
    );
    const early: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^listening on (http:\/\/\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      } else options.onLog({ level: 'info', msg: line });
    });
    createInterface({ input: child.stderr! }).on('line', (line) => {
      early.push(line);
      options.onLog(parseLine(line));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const why = describeExit(code, signal);
      if (stopping) return;
      options.onExit(why);
      reject(new Error(`the bot ${why} while starting: ${early.slice(-3).join(' | ') || 'no output'}`));
    });
  });
  return {
    url,
    child,
    stop: (graceMs = 8000) => {
      stopping = true;
      return stopChild(child, graceMs);
    },
  };
}

export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with status ${code}`;
}

function parseLine(line: string): BotLogLine {
  try {
    const parsed = JSON.parse(line) as BotLogLine;
    if (parsed && typeof parsed.msg === 'string') return parsed;
  } catch {
    // not a JSON log line
  }
  return { level: 'error', msg: line };
}
