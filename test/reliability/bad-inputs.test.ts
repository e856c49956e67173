/**
 * Bad snapshots and config (part of the reliability suite): malformed YAML, missing folders and files, a
 * 200 MB log, binary bytes in a log, a 10,000-object objects.yaml, configs with wrong types, a
 * YAML alias bomb. The built CLI runs as a child process, as a user runs it; each input must give
 * exit 2 with one stderr line that names the file (or key), or a correct report, and never a stack
 * trace or exit 4. Peak RSS is read from outside (VmHWM in /proc/PID/status of the child) and
 * printed. Prints `reliability: bad inputs N, unclear errors U` and requires U = 0.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createWriteStream, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { ensureFreshDist } from '../support/fresh-dist.js';

const CLI = path.resolve('dist/src/cli/isvc-doctor.js');
const BASE = 'test/scenarios/storage-access-denied';
const TARGET = ['credit-xgb', '-n', 'risk-models'];
const POD_DIR = 'logs/risk-models/credit-xgb-predictor-00001-deployment-7phlk8vchk-mv2rj';
const LOG = `${POD_DIR}/storage-initializer.log`;
const MB = 1024 * 1024;

const dir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-rel-bad-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  peakRssMb: number;
}

/** VmHWM (peak resident set) of a live process, in MB; 0 once it is gone. */
async function peakRss(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(status);
    return kb ? Number(kb[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs the built CLI; samples the child's VmHWM until it exits (VmHWM only grows, so the last sample is the peak up to then). */
async function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  let peak = 0;
  let running = true;
  const exited = once(child, 'exit').then(([code]) => {
    running = false;
    return code as number | null;
  });
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await peakRss(child.pid!));
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const code = await exited;
  await sampler;
  return {
    code,
    stdout: Buffer.concat(out).toString(),
    stderr: Buffer.concat(err).toString(),
    peakRssMb: Math.round(peak),
  };
}

function snapshotCopy(name: string): string {
  const target = path.join(dir, name);
  cpSync(BASE, target, { recursive: true });
  return target;
}

/** Writes `bytes` of ordinary log lines, then the real log, streamed (never held in memory). */
async function writeBigLog(file: string, bytes: number): Promise<void> {
  const out = createWriteStream(file);
  const line = '2023-10-05 09:24:38.512 1 kserve INFO downloading part of the model, nothing wrong yet\n';
  const chunk = line.repeat(Math.floor(MB / line.length));
  for (let written = 0; written < bytes; written += chunk.length) if (!out.write(chunk)) await once(out, 'drain');
  out.write(readFileSync(path.join(BASE, LOG)));
  out.end();
  await once(out, 'finish');
}

interface Case {
  name: string;
  args: () => Promise<string[]> | string[];
  env?: Record<string, string>;
  /** 'report': a correct report (exit 1, the scenario's root cause); else a refusal whose one line matches. */
  expect: 'report' | RegExp;
}

const diagnose = (snapshot: string, ...more: string[]) => ['diagnose', ...TARGET, '--snapshot', snapshot, ...more];

const CASES: Case[] = [
  {
    name: 'malformed YAML in objects.yaml',
    args: () => {
      const s = snapshotCopy('malformed');
      writeFileSync(path.join(s, 'objects.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: [unclosed\n');
      return diagnose(s);
    },
    expect: /malformed\/objects\.yaml:\d+: /,
  },
  {
    name: 'objects.yaml that holds no object',
    args: () => {
      const s = snapshotCopy('scalar');
      writeFileSync(path.join(s, 'objects.yaml'), '42\n---\n- a\n');
      return diagnose(s);
    },
    expect: /scalar\/objects\.yaml: document 1 is not a Kubernetes object/,
  },
  {
    name: 'a snapshot folder that does not exist',
    args: () => diagnose(path.join(dir, 'nowhere')),
    expect: /nowhere does not exist/,
  },
  {
    name: 'a snapshot folder without objects.yaml',
    args: () => {
      const s = path.join(dir, 'empty');
      mkdirSync(s, { recursive: true });
      return diagnose(s);
    },
    expect: /empty\/objects\.yaml: missing objects\.yaml/,
  },
  {
    name: 'a snapshot that is a file',
    args: () => {
      const f = path.join(dir, 'file-not-folder');
      writeFileSync(f, 'x');
      return diagnose(f);
    },
    expect: /file-not-folder: not a folder/,
  },
  {
    name: 'malformed access.yaml',
    args: () => {
      const s = snapshotCopy('access');
      writeFileSync(path.join(s, 'access.yaml'), 'deny: {verb: get}\n');
      return diagnose(s);
    },
    expect: /access\/access\.yaml: `deny` must be a list/,
  },
  {
    name: 'cluster.yaml with a wrong type',
    args: () => {
      const s = snapshotCopy('cluster');
      writeFileSync(path.join(s, 'cluster.yaml'), 'kserve: [0, 11]\n');
      return diagnose(s);
    },
    expect: /cluster\/cluster\.yaml: `kserve`: /,
  },
  {
    name: 'a YAML alias bomb in objects.yaml',
    args: () => {
      const s = snapshotCopy('alias-bomb');
      const levels = [
        'a0: &a0 [x, x, x, x, x, x, x, x, x, x]',
        ...Array.from({ length: 19 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`),
      ];
      writeFileSync(
        path.join(s, 'objects.yaml'),
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n${levels.map((l) => `  ${l}`).join('\n')}\n`,
      );
      return diagnose(s);
    },
    expect: /alias-bomb\/objects\.yaml: YAML aliases expand too far/,
  },
  {
    name: 'a YAML alias bomb in --config',
    args: () => {
      const f = path.join(dir, 'bomb-config.yaml');
      const levels = [
        'a0: &a0 [x, x, x, x, x, x, x, x, x, x]',
        ...Array.from({ length: 19 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`),
      ];
      writeFileSync(f, levels.join('\n'));
      return diagnose(BASE, '--config', f);
    },
    expect: /bomb-config\.yaml: /,
  },
  {
    name: 'a config with wrong types (diagnose --config)',
    args: () => {
      const f = path.join(dir, 'wrong-types.yaml');
      writeFileSync(f, 'queue: {concurrency: "four"}\ndiagnosis: {knativeNamespace: 5}\n');
      return diagnose(BASE, '--config', f);
    },
    expect: /wrong-types\.yaml: queue\.concurrency: expected number, got string/,
  },
  {
    name: "a snapshot's config.yaml with an unknown key",
    args: () => {
      const s = snapshotCopy('config-key');
      writeFileSync(path.join(s, 'config.yaml'), 'diagnosis: {logTailLines: many}\n');
      return diagnose(s);
    },
    expect: /config-key\/config\.yaml: diagnosis: unknown key\(s\) logTailLines/,
  },
  {
    name: 'a config with wrong types (serve --config)',
    args: () => {
      const f = path.join(dir, 'serve-wrong.yaml');
      writeFileSync(f, 'namespaces: 5\n');
      return ['serve', '--config', f];
    },
    env: {
      SLACK_BOT_TOKEN: 'xoxb-x',
      SLACK_SIGNING_SECRET: 'y',
      REDIS_URL: 'redis://127.0.0.1:1',
      PORT: '0',
      METRICS_PORT: '0',
    },
    expect: /config: namespaces: /,
  },
  {
    name: 'binary bytes in a log',
    args: () => {
      const s = snapshotCopy('binary');
      const bytes = Buffer.alloc(64 * 1024);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 256;
      writeFileSync(
        path.join(s, LOG),
        Buffer.concat([
          bytes,
          Buffer.from('\u001b[2J\u001b]8;;https://evil.example\u0007here\u001b]8;;\u0007\n'),
          readFileSync(path.join(BASE, LOG)),
          bytes,
        ]),
      );
      return diagnose(s);
    },
    expect: 'report',
  },
  {
    name: 'a 200 MB log',
    args: async () => {
      const s = snapshotCopy('big-log');
      await writeBigLog(path.join(s, LOG), 200 * MB);
      return diagnose(s);
    },
    expect: 'report',
  },
  {
    name: 'a 10,000-object objects.yaml',
    args: () => {
      const s = snapshotCopy('many');
      const filler = Array.from(
        { length: 10_000 },
        (_, i) =>
          `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: filler-${i}\n  namespace: risk-models\n  labels: {app: filler}\ndata:\n  n: "${i}"\n`,
      ).join('');
      writeFileSync(
        path.join(s, 'objects.yaml'),
        `${readFileSync(path.join(BASE, 'objects.yaml'), 'utf8')}\n${filler}`,
      );
      return diagnose(s);
    },
    expect: 'report',
  },
];

let baseline: Run;
beforeAll(async () => {
  await ensureFreshDist();
  baseline = await runCli(diagnose(BASE));
}, 180_000);

/** Why a run is not a clear answer (empty when it is). */
function unclear(c: Case, r: Run): string[] {
  const problems: string[] = [];
  if (/^\s+at .+:\d+:\d+\)?$/m.test(r.stderr) || /^\s+at .+:\d+:\d+\)?$/m.test(r.stdout))
    problems.push('a stack trace');
  if (r.code === 4 || /internal error/.test(r.stderr)) problems.push(`internal error (exit ${r.code})`);
  if (c.expect === 'report') {
    if (r.code !== 1) problems.push(`exit ${r.code}, not a report: ${r.stderr.split('\n')[0]}`);
    if (!r.stdout.includes('STORAGE_ACCESS_DENIED')) problems.push('the report misses the root cause');
    if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(r.stdout))
      problems.push('raw control characters in the text output');
  } else {
    const lines = r.stderr.trimEnd().split('\n');
    if (r.code !== 2) problems.push(`exit ${r.code}, not 2`);
    if (lines.length !== 1) problems.push(`${lines.length} stderr lines, not one`);
    if (!c.expect.test(lines[0] ?? '')) problems.push(`"${lines[0]}" does not say ${c.expect}`);
  }
  return problems;
}

describe('bad snapshots and config', () => {
  it('answers every bad input with exit 2 and one line, or a correct report, in bounded memory', async () => {
    expect(baseline.code).toBe(1);
    const results: Array<{ c: Case; r: Run; problems: string[] }> = [];
    for (const c of CASES) {
      const r = await runCli(await c.args(), c.env);
      results.push({ c, r, problems: unclear(c, r) });
    }
    const unclearOnes = results.filter((x) => x.problems.length > 0);
    const peak = (name: string) => results.find((x) => x.c.name === name)!.r.peakRssMb;
    process.stdout.write(
      [
        `reliability: bad inputs ${results.length}, unclear errors ${unclearOnes.length}`,
        `reliability: peak RSS baseline diagnose ${baseline.peakRssMb} MB`,
        `reliability: peak RSS 200 MB log ${peak('a 200 MB log')} MB`,
        `reliability: peak RSS 10,000-object objects.yaml ${peak('a 10,000-object objects.yaml')} MB`,
        `reliability: peak RSS alias bomb ${peak('a YAML alias bomb in objects.yaml')} MB`,
        `reliability: peak RSS binary log ${peak('binary bytes in a log')} MB`,
        `reliability: peak RSS max over bad inputs ${Math.max(...results.map((x) => x.r.peakRssMb))} MB`,
        ...unclearOnes.map((x) => `  unclear: ${x.c.name}: ${x.problems.join('; ')}`),
        '',
      ].join('\n'),
    );
    expect(unclearOnes.map((x) => `${x.c.name}: ${x.problems.join('; ')}`)).toEqual([]);
    // memory does not grow with the log: a 200 MB log costs less than half its size over a plain diagnosis
    expect(peak('a 200 MB log')).toBeLessThan(baseline.peakRssMb + 100);
    // within the bot's pod limit (512Mi) with room to spare
    expect(Math.max(...results.map((x) => x.r.peakRssMb))).toBeLessThan(400);
  }, 600_000);
});
