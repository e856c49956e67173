/**
 * The isvc-doctor command: `diagnose`, `simulate`, `serve`. The one place that maps errors to
 * exit statuses: 2 bad usage or input, 3 cluster unreachable; never a stack trace.
 */
import { ClusterUnreachableError } from '../kube/errors.js';
import { SnapshotError } from '../snapshot/load-snapshot.js';
import { DIAGNOSE_USAGE, runDiagnoseCommand } from './diagnose-command.js';
import { UsageError } from './usage-error.js';

const HELP = `isvc-doctor: why is my KServe / KFServing InferenceService not ready?

${DIAGNOSE_USAGE}
usage: isvc-doctor simulate --snapshot DIR [--port N] [--latency MS] [--kubeconfig-out FILE]
usage: isvc-doctor serve [--config FILE] [--role all|web|worker|watcher]
usage: isvc-doctor signatures test [FILE...]

Exit status: 0 no error finding, 1 error findings, 2 bad usage or input, 3 cluster unreachable.
`;

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export async function main(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [command, ...rest] = argv;
  const { stdout, stderr } = io;
  try {
    switch (command) {
      case 'diagnose':
        return await runDiagnoseCommand(rest, { stdout });
      case 'simulate': {
        const { runSimulateCommand } = await import('./simulate-command.js');
        return await runSimulateCommand(rest);
      }
      case 'signatures': {
        const { runSignaturesCommand } = await import('./signatures-command.js');
        return runSignaturesCommand(rest, { stdout });
      }
      case 'serve': {
        // loaded only for `serve`, so that `diagnose` never loads Slack, BullMQ or Redis clients
        const { runServeCommand } = await import('./serve-command.js');
        return await runServeCommand(rest);
      }
      case undefined:
        stderr.write(HELP);
        return 2;
      case '-h':
      case '--help':
      case 'help':
        stdout.write(HELP);
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"\n${HELP}`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof SnapshotError) {
      stderr.write(`isvc-doctor: ${error.message}\n`);
      return 2;
    }
    if (error instanceof ClusterUnreachableError) {
      stderr.write(`isvc-doctor: ${error.message}\n`);
      return 3;
    }
    stderr.write(`isvc-doctor: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 4;
  }
}

