/**
 * `npm run eval:blind`: diagnoses every snapshot of test/blind (the held-out evaluation set) through
 * the simulator and @kubernetes/client-node, as the scenarios test does, and prints for each case:
 * - code: the root cause code is the one expect.yaml names (ISVC_READY: a healthy report);
 * - cause: the root cause finding names what the maintainers concluded (test/blind/judge.yaml `cause`
 *   terms in its title or evidence; for a healthy service, in any finding);
 * - line: the deciding line is shown whole in the root cause's evidence (any finding's when healthy);
 * - advice: its next step names what the maintainers' fix changes (judge.yaml `next` terms), names
 *   no wrong target (`nextNot` terms), and no next step of the report has an unfilled placeholder, a
 *   field path the InferenceService does not have or a generic phrase outside a labelled fallback.
 * The code score and the advice score are printed side by side: a right code with advice that does
 * not name the fix still costs the person the time the bot was meant to save.
 * `--verbose` prints each report's findings; `--only NAME` runs the folders whose name contains NAME.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { diagnose } from '../src/app/diagnoser.js';
import { diagnosisConfigFrom } from '../src/cli/diagnose-command.js';
import { judgeAdvice, namesTerm, type AdviceVerdict } from '../src/findings/next-step-quality.js';
import type { Finding, Report } from '../src/findings/types.js';
import { kubeConfigForServer } from '../src/kube/client.js';
import { startSimulator } from '../src/simulator/simulator.js';
import { loadSnapshot } from '../src/snapshot/load-snapshot.js';

export const BLIND_DIR = path.resolve('test/blind');

interface Judge {
  cause: string[];
  next: string[];
  /** Terms the next step must not name (a wrong target the report's own words could lead to). */
  nextNot?: string[];
}

export interface CaseResult {
  name: string;
  expected: string;
  got: string;
  code: boolean;
  cause: boolean;
  line: boolean;
  /** The next step names the fix, no wrong target, and no next step of the report is unusable. */
  advice: boolean;
  verdict: AdviceVerdict;
  report: Report;
}

const textOf = (f: Finding) =>
  [f.title, ...f.evidence.flatMap((e) => [e.text ?? '', e.ref, ...(e.excerpt ?? [])])].join('\n');
const hasAll = (text: string, terms: readonly string[]) => terms.every((t) => namesTerm(text, t));

export async function evaluateCase(dir: string, judge: Judge): Promise<CaseResult> {
  const expect = parseYaml(readFileSync(path.join(dir, 'expect.yaml'), 'utf8')) as {
    target: { namespace: string; name: string };
    rootCause: string;
    decidingLine?: string;
  };
  const snapshot = await loadSnapshot(dir);
  const simulator = await startSimulator({ snapshot, port: 0 });
  try {
    const config = snapshot.config !== undefined ? diagnosisConfigFrom(snapshot.config, 'config.yaml') : {};
    const report = await diagnose(kubeConfigForServer(simulator.url), expect.target, {
      config,
      now: () => new Date('2024-06-01T00:00:00Z'),
    });
    const healthy = expect.rootCause === 'ISVC_READY';
    const got = report.rootCause ?? (report.findings[0]?.code === 'ISVC_READY' ? 'ISVC_READY' : 'none');
    const root = report.rootCause ? report.findings[0] : undefined;
    const shown = healthy ? report.findings : root ? [root] : [];
    const causeText = shown.map(textOf).join('\n');
    const { namespace, name, apiVersion } = report.target;
    const read = apiVersion
      ? await fetch(`${simulator.url}/apis/${apiVersion}/namespaces/${namespace}/inferenceservices/${name}`)
      : undefined;
    const isvc: unknown = read?.ok ? await read.json() : undefined;
    // a healthy report is judged on all its next steps and notes (it has no root cause)
    const verdict = judgeAdvice(
      healthy ? { rootCause: null, findings: report.findings } : report,
      judge.next,
      judge.nextNot ?? [],
      isvc,
    );
    return {
      name: path.basename(dir),
      expected: expect.rootCause,
      got,
      code: got === expect.rootCause,
      cause: hasAll(causeText, judge.cause),
      line: expect.decidingLine ? causeText.includes(expect.decidingLine) : false,
      advice: verdict.ok,
      verdict,
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
    .filter(
      (d) =>
        d.isDirectory() && existsSync(path.join(BLIND_DIR, d.name, 'expect.yaml')) && (!only || d.name.includes(only)),
    )
    .map((d) => d.name)
    .sort();
  const results: CaseResult[] = [];
  const mark = (b: boolean) => (b ? 'yes' : ' - ');
  process.stdout.write(`${'case'.padEnd(58)} code cause line advice  got (expected)\n`);
  for (const name of dirs) {
    const judge = judges[name];
    if (!judge) throw new Error(`test/blind/judge.yaml has no entry for ${name}`);
    const r = await evaluateCase(path.join(BLIND_DIR, name), judge);
    results.push(r);
    process.stdout.write(
      `${name.padEnd(58)} ${mark(r.code)}  ${mark(r.cause)}  ${mark(r.line)}  ${mark(r.advice)}    ${r.got}${r.code ? '' : ` (${r.expected})`}\n`,
    );
    if (!r.advice) {
      const v = r.verdict;
      const why = [
        ...v.missing.map((t) => `does not name "${t}"`),
        ...v.wrong.map((t) => `names "${t}"`),
        ...v.problems.map((p) => `${p.kind} in ${p.code}: ${p.text}`),
      ];
      process.stdout.write(`    advice: ${why.join('; ')}\n`);
    }
    if (verbose) {
      for (const f of r.report.findings) {
        process.stdout.write(`    ${f.code}${f.consequenceOf ? ` <- ${f.consequenceOf}` : ''}: ${f.title}\n`);
        for (const e of f.evidence)
          process.stdout.write(
            `      [${e.kind}] ${e.ref}: ${e.text ?? ''}${e.excerpt ? ` | ${e.excerpt.join(' / ')}` : ''}\n`,
          );
        if (f.next) process.stdout.write(`      next: ${f.next}\n`);
      }
    }
  }
  const count = (k: 'code' | 'cause' | 'line' | 'advice') => results.filter((r) => r[k]).length;
  const n = results.length;
  process.stdout.write(
    `\ncode score ${count('code')}/${n}   advice score ${count('advice')}/${n}   (real cause named ${count('cause')}/${n}, deciding line shown ${count('line')}/${n})\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
