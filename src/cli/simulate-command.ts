/**
 * `isvc-doctor simulate --snapshot DIR [--port N] [--latency MS] [--kubeconfig-out FILE] [--request-log FILE]`:
 * serves a snapshot as a Kubernetes API until SIGINT/SIGTERM. Prints `listening on URL` when
 * ready; bad usage or a bad snapshot is one line on stderr and exit status 2. `--request-log`
 * appends one JSON line per request answered (method, path, verb, resource, status, `at` and
 * `doneAt` in epoch ms), so that benchmarks can count from outside what a client asked for.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { errorMessage } from '../core/error-message.js';
import { startSimulator } from '../simulator/simulator.js';
import { loadSnapshot, SnapshotError } from '../snapshot/load-snapshot.js';
import { usageOf } from './cli-commands.js';
import { UsageError } from './usage-error.js';

const USAGE = usageOf('simulate');

interface SimulateFlags {
  snapshot: string;
  port: number;
  latencyMs: number;
  kubeconfigOut?: string;
  requestLog?: string;
}

export async function runSimulateCommand(argv: string[]): Promise<number> {
  let flags: SimulateFlags;
  try {
    flags = parseFlags(argv);
  } catch (error) {
    process.stderr.write(`${oneLine(error)}\n${USAGE}\n`);
    return 2;
  }
  try {
    const snapshot = await loadSnapshot(flags.snapshot);
    const log = flags.requestLog;
    if (log) writeFileSync(log, '');
    const onRequest = log ? (r: object) => appendFileSync(log, `${JSON.stringify(r)}\n`) : undefined;
    const simulator = await startSimulator({
      snapshot,
      port: flags.port,
      latencyMs: flags.latencyMs,
      ...(onRequest ? { onRequest } : {}),
    });
    if (flags.kubeconfigOut) await simulator.writeKubeconfig(flags.kubeconfigOut);
    process.stdout.write(`listening on ${simulator.url}\n`);
    await untilStopped();
    await simulator.close();
    return 0;
  } catch (error) {
    process.stderr.write(`isvc-doctor simulate: ${oneLine(error)}\n`);
    return 2;
  }
}

function parseFlags(argv: string[]): SimulateFlags {
  const args = argv[0] === 'simulate' ? argv.slice(1) : argv;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        snapshot: { type: 'string' },
        port: { type: 'string' },
        latency: { type: 'string' },
        'kubeconfig-out': { type: 'string' },
        'request-log': { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError(oneLine(error));
  }
  if (typeof values.snapshot !== 'string' || !values.snapshot) throw new UsageError('--snapshot DIR is required');
  const port = count(values.port, '--port', 65535);
  const latencyMs = count(values.latency, '--latency', 600_000);
  const kubeconfigOut = typeof values['kubeconfig-out'] === 'string' ? values['kubeconfig-out'] : undefined;
  const requestLog = typeof values['request-log'] === 'string' ? values['request-log'] : undefined;
  return {
    snapshot: values.snapshot,
    port,
    latencyMs,
    ...(kubeconfigOut ? { kubeconfigOut } : {}),
    ...(requestLog ? { requestLog } : {}),
  };
}

function count(raw: string | boolean | undefined, flag: string, max: number): number {
  if (raw === undefined) return 0;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || value > max)
    throw new UsageError(`${flag} must be a whole number from 0 to ${max}`);
  return value;
}

function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function oneLine(error: unknown): string {
  if (error instanceof SnapshotError || error instanceof UsageError) return error.message;
  return errorMessage(error);
}
