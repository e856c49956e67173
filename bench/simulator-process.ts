/** `isvc-doctor simulate` in a process of its own, with a kubeconfig for it and its request log. */
import path from 'node:path';
import { cliBin } from './cli-bin.js';
import { startListening, type ListeningProcess } from './listening-process.js';
import { RequestLogReader } from './request-log-reader.js';

export interface SimulatorProcess extends ListeningProcess {
  kubeconfig: string;
  latencyMs: number;
  log: RequestLogReader;
}

let serial = 0;

export async function startSimulatorProcess(
  snapshotDir: string,
  latencyMs: number,
  workDir: string,
): Promise<SimulatorProcess> {
  serial += 1;
  const kubeconfig = path.join(workDir, `sim-${serial}.kubeconfig`);
  const requestLog = path.join(workDir, `sim-${serial}.requests.jsonl`);
  const args = [
    cliBin(),
    'simulate',
    '--snapshot',
    snapshotDir,
    '--latency',
    String(latencyMs),
    '--kubeconfig-out',
    kubeconfig,
    '--request-log',
    requestLog,
  ];
  const running = await startListening(
    `simulate ${path.basename(snapshotDir)}`,
    process.execPath,
    args,
    process.env,
    120_000,
  );
  return { ...running, kubeconfig, latencyMs, log: new RequestLogReader(requestLog) };
}
