/**
 * One playbook on a few objects, for the test beside it (playbooks/<id>.test.ts): the objects are
 * served by the cluster simulator over HTTP and read through the real @kubernetes/client-node by the
 * runner with this playbook alone, so every finding but the runner's own (ISVC_READY, BOT_FORBIDDEN…)
 * comes from it. The simulator is closed before the report is returned.
 */
import type { Playbook } from '../../src/diagnosis/playbook.js';
import { runDiagnosis, type DiagnoseOptions } from '../../src/diagnosis/run-diagnosis.js';
import type { Report } from '../../src/findings/types.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { startSimulator } from '../../src/simulator/simulator.js';

export interface PlaybookRun {
  report: Report;
  /** The codes found, root cause first. */
  codes: string[];
  /** The API paths the diagnosis asked for, in order. */
  paths: string[];
}

export async function runPlaybook(
  playbook: Playbook,
  objects: Record<string, unknown>[],
  target: { namespace: string; name: string },
  options: { logs?: Record<string, string>; diagnose?: DiagnoseOptions } = {},
): Promise<PlaybookRun> {
  const sim = await startSimulator({
    snapshot: { dir: '/nonexistent', objects, logs: new Map(Object.entries(options.logs ?? {})), deny: [] },
  });
  try {
    const report = await runDiagnosis([playbook], kubeConfigForServer(sim.url), target, options.diagnose);
    return { report, codes: report.findings.map((f) => f.code), paths: sim.requests.map((r) => r.path) };
  } finally {
    await sim.close();
  }
}
