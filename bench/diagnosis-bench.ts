/**
 * Diagnosis benchmark: every scenario against the cluster simulator with 20 ms of latency on each
 * answer. Prints API requests, wall time, and wall time / 20 ms (round trips on the critical path).
 * Targets: at most 20 requests and under 8 round trips a diagnosis.
 */
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { diagnosisConfigFrom } from '../src/cli/diagnose-command.js';
import { diagnose } from '../src/app/diagnoser.js';
import { kubeConfigForServer } from '../src/kube/client.js';
import { startSimulator } from '../src/simulator/simulator.js';
import { loadSnapshot } from '../src/snapshot/load-snapshot.js';

const LATENCY_MS = 20;
const MAX_REQUESTS = 20;
const MAX_ROUND_TRIPS = 8;

export async function benchDiagnosis(scenariosDir = path.resolve('test/scenarios')): Promise<boolean> {
  const names = readdirSync(scenariosDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(scenariosDir, d.name, 'expect.yaml')))
    .map((d) => d.name)
    .sort();
  console.log(`diagnosis against the simulator with --latency ${LATENCY_MS} (targets: <= ${MAX_REQUESTS} requests, < ${MAX_ROUND_TRIPS} round trips)`);
  console.log(`${'scenario'.padEnd(44)} ${'requests'.padStart(8)} ${'wall ms'.padStart(8)} ${'round trips'.padStart(11)}  root cause`);
  let ok = true;
  const rows: Array<{ requests: number; trips: number }> = [];
  for (const name of names) {
    const dir = path.join(scenariosDir, name);
    const expect = parseYaml(readFileSync(path.join(dir, 'expect.yaml'), 'utf8')) as { target: { namespace: string; name: string } };
    const snapshot = await loadSnapshot(dir);
    const simulator = await startSimulator({ snapshot, port: 0, latencyMs: LATENCY_MS });
    try {
      const config = snapshot.config !== undefined ? diagnosisConfigFrom(snapshot.config, 'config.yaml') : {};
      const started = performance.now();
      const report = await diagnose(kubeConfigForServer(simulator.url), expect.target, { config });
      const wall = performance.now() - started;
      const trips = wall / LATENCY_MS;
      rows.push({ requests: report.stats.apiRequests, trips });
      const flag = report.stats.apiRequests > MAX_REQUESTS || trips >= MAX_ROUND_TRIPS ? '  OVER TARGET' : '';
      if (flag) ok = false;
      console.log(`${name.padEnd(44)} ${String(report.stats.apiRequests).padStart(8)} ${wall.toFixed(0).padStart(8)} ${trips.toFixed(2).padStart(11)}  ${report.rootCause ?? 'ready'}${flag}`);
    } finally {
      await simulator.close();
    }
  }
  const max = (xs: number[]) => Math.max(...xs);
  console.log(
    `max: ${max(rows.map((r) => r.requests))} requests (target ${MAX_REQUESTS}), ${max(rows.map((r) => r.trips)).toFixed(2)} round trips (target < ${MAX_ROUND_TRIPS}); ratio to target: ${(max(rows.map((r) => r.requests)) / MAX_REQUESTS).toFixed(2)} requests, ${(max(rows.map((r) => r.trips)) / MAX_ROUND_TRIPS).toFixed(2)} round trips`,
  );
  return ok;
}
