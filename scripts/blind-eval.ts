/**
 * `npm run eval:blind`: diagnoses every snapshot of test/blind (the held-out evaluation set) through
 * the simulator and @kubernetes/client-node, as the scenarios test does, and prints for each case:
 * - code: the root cause code is the one expect.yaml names (ISVC_READY: a healthy report);
 * - cause: the root cause finding names what the maintainers concluded (test/blind/judge.yaml `cause`
 *   terms in its title or evidence; for a healthy service, in any finding);
 * - line: the deciding line is shown whole in the root cause's evidence (any finding's when healthy);
 * - next: its next step names the object / field the conclusion fixes (judge.yaml `next` terms).
 * `--verbose` prints each report's findings; `--only NAME` runs the folders whose name contains NAME.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { diagnose } from '../src/app/diagnoser.js';
import { diagnosisConfigFrom } from '../src/cli/diagnose-command.js';
import type { Finding, Report } from '../src/findings/types.js';
import { kubeConfigForServer } from '../src/kube/client.js';
import { startSimulator } from '../src/simulator/simulator.js';
import { loadSnapshot } from '../src/snapshot/load-snapshot.js';

export const BLIND_DIR = path.resolve('test/blind');

interface Judge {
  cause: string[];
  next: string[];
}

export interface CaseResult {
  name: string;
  expected: string;
  got: string;
  code: boolean;
  cause: boolean;
  line: boolean;
  next: boolean;
  report: Report;
}

const textOf = (f: Finding) => [f.title, ...f.evidence.flatMap((e) => [e.text ?? '', e.ref, ...(e.excerpt ?? [])])].join('\n');
const hasTerm = (text: string, term: string) => term.split('|').some((t) => text.toLowerCase().includes(t.toLowerCase()));
const hasAll = (text: string, terms: readonly string[]) => terms.every((t) => hasTerm(text, t));

export async function evaluateCase(dir: string, judge: Judge): Promise<CaseResult> {
  const expect = parseYaml(readFileSync(path.join(dir, 'expect.yaml'), 'utf8')) as { target: { namespace: string; name: string }; rootCause: string; decidingLine?: string };
  const snapshot = await loadSnapshot(dir);
  const simulator = await startSimulator({ snapshot, port: 0 });
  try {
    const config = snapshot.config !== undefined ? diagnosisConfigFrom(snapshot.config, 'config.yaml') : {};
    const report = await diagnose(kubeConfigForServer(simulator.url), expect.target, { config, now: () => new Date('2024-06-01T00:00:00Z') });
    const healthy = expect.rootCause === 'ISVC_READY';
    const got = report.rootCause ?? (report.findings[0]?.code === 'ISVC_READY' ? 'ISVC_READY' : 'none');
    const root = report.rootCause ? report.findings[0] : undefined;
    const shown = healthy ? report.findings : root ? [root] : [];
    const causeText = shown.map(textOf).join('\n');
    const nextText = healthy ? report.findings.flatMap((f) => [f.next ?? '', ...f.evidence.filter((e) => e.kind === 'note').map((e) => e.text ?? '')]).join('\n') : (root?.next ?? '');
    return {
      name: path.basename(dir),
      expected: expect.rootCause,
      got,
      code: got === expect.rootCause,
      cause: hasAll(causeText, judge.cause),
      line: expect.decidingLine ? causeText.includes(expect.decidingLine) : false,
      next: hasAll(nextText, judge.next),
      report,
    };
  } finally {
    await simulator.close();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const judges = parseYaml(readFileSync(path.join(BLIND_DIR, 'judge.yaml'), 'utf8')) as Record<string, Judge>;
  const dirs = readdirSync(BLIND_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(BLIND_DIR, d.name, 'expect.yaml')) && (!only || d.name.includes(only)))
    .map((d) => d.name)
    .sort();
  const results: CaseResult[] = [];
  const mark = (b: boolean) => (b ? 'yes' : ' - ');
  process.stdout.write(`${'case'.padEnd(54)} code cause line next  got (expected)\n`);
  for (const name of dirs) {
    const judge = judges[name];
    if (!judge) throw new Error(`test/blind/judge.yaml has no entry for ${name}`);
    const r = await evaluateCase(path.join(BLIND_DIR, name), judge);
    results.push(r);
    process.stdout.write(`${name.padEnd(54)} ${mark(r.code)}  ${mark(r.cause)}  ${mark(r.line)}  ${mark(r.next)}  ${r.got}${r.code ? '' : ` (${r.expected})`}\n`);
    if (verbose) {
      for (const f of r.report.findings) {
        process.stdout.write(`    ${f.code}${f.consequenceOf ? ` <- ${f.consequenceOf}` : ''}: ${f.title}\n`);
        for (const e of f.evidence) process.stdout.write(`      [${e.kind}] ${e.ref}: ${e.text ?? ''}${e.excerpt ? ` | ${e.excerpt.join(' / ')}` : ''}\n`);
        if (f.next) process.stdout.write(`      next: ${f.next}\n`);
      }
    }
  }
  const count = (k: 'code' | 'cause' | 'line' | 'next') => results.filter((r) => r[k]).length;
  process.stdout.write(`\ncode right ${count('code')}/${results.length}, real cause named ${count('cause')}/${results.length}, deciding line shown ${count('line')}/${results.length}, next step names the fix ${count('next')}/${results.length}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
