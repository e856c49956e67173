/** Types a runbook into kubectl: one process per command, one after the other, as a person's script runs them. */
import type { Runbook, RunbookStep } from './kubectl-runbooks.js';
import { kubectlPath } from './kubectl-path.js';
import { timedRun } from './timed-run.js';

export interface RunbookRun {
  ms: number;
  commands: number;
  failed: number;
}

/** kubectl with this kubeconfig and a discovery cache of its own (warm after the first command, as a person's is). */
export function kubectlEnv(kubeconfig: string, cacheDir: string): { env: NodeJS.ProcessEnv; flags: string[] } {
  return {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, KUBECONFIG: kubeconfig },
    flags: ['--cache-dir', cacheDir],
  };
}

/**
 * Runs the steps; `script` goes on after a failing command (a script does), the shortest path
 * must not fail. The output must show the runbook's evidence.
 */
export async function runRunbook(
  runbook: Runbook,
  form: 'script' | 'shortest',
  kubeconfig: string,
  cacheDir: string,
): Promise<RunbookRun> {
  const { env, flags } = kubectlEnv(kubeconfig, cacheDir);
  const steps: RunbookStep[] = runbook[form];
  const vars: Record<string, string> = {};
  let total = 0;
  let failed = 0;
  let output = '';
  for (const step of steps) {
    const args = step.args.map((a) => a.replace(/\{(rev|pod)\}/g, (_, v: string) => vars[v] ?? ''));
    const run = await timedRun(kubectlPath(), [...args, ...flags], env);
    total += run.ms;
    if (run.code !== 0) {
      if (form === 'shortest')
        throw new Error(
          `runbook ${runbook.scenario}: kubectl ${args.join(' ')} failed: ${run.stderr.trim().split('\n')[0]}`,
        );
      failed += 1;
    }
    output += run.stdout;
    if (step.capture === 'rev') vars.rev = run.stdout.trim();
    if (step.capture === 'pod') vars.pod = run.stdout.split('\n')[1]?.split(/\s+/)[0] ?? '';
  }
  if (!runbook.evidence.test(output))
    throw new Error(`runbook ${runbook.scenario} (${form}): its output does not show ${runbook.evidence}`);
  return { ms: total, commands: steps.length, failed };
}
