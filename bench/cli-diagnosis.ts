/** One `isvc-doctor diagnose -o json` process against the simulator, timed from spawn to exit. */
import path from 'node:path';
import { cliBin } from './cli-bin.js';
import { diagnosisRequests, type LoggedRequest } from './request-log-reader.js';
import type { SimulatorProcess } from './simulator-process.js';
import { timedRun } from './timed-run.js';

export interface CliDiagnosis {
  ms: number;
  rootCause: string | null;
  /** stats.durationMs: the process's own diagnosis time. */
  durationMs: number;
  /** stats.apiRequests: what the CLI counted. */
  apiRequests: number;
  /** What the simulator received. */
  requests: LoggedRequest[];
}

export async function cliDiagnosis(
  sim: SimulatorProcess,
  target: { namespace: string; name: string },
): Promise<CliDiagnosis> {
  const sentAt = Date.now();
  // the CLI's discovery hints (as kubectl's discovery cache) in the bench's own folder, one per simulator
  const env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(path.dirname(sim.kubeconfig), `isvc-doctor-cache-${path.basename(sim.kubeconfig)}`),
  };
  const run = await timedRun(
    process.execPath,
    [cliBin(), 'diagnose', target.name, '-n', target.namespace, '--kubeconfig', sim.kubeconfig, '-o', 'json'],
    env,
  );
  if (run.code !== 0 && run.code !== 1)
    throw new Error(`isvc-doctor diagnose exited ${run.code}: ${run.stderr.trim().split('\n')[0]}`);
  const report = JSON.parse(run.stdout) as {
    rootCause: string | null;
    stats: { durationMs: number; apiRequests: number };
  };
  await sim.log.quiet(100);
  return {
    ms: run.ms,
    rootCause: report.rootCause,
    durationMs: report.stats.durationMs,
    apiRequests: report.stats.apiRequests,
    requests: diagnosisRequests(sim.log.since(sentAt)),
  };
}
