/**
 * The isvc-doctor command: the subcommands of cli-commands.ts. The one place that maps errors to
 * exit statuses: 2 bad usage or input, 3 cluster unreachable; never a stack trace.
 */
import { errorMessage } from '../core/error-message.js';
import { CLI_COMMANDS } from './cli-commands.js';
import type { CliIo } from './cli-io.js';

export type { CliIo } from './cli-io.js';

const HELP = `isvc-doctor: why is my KServe / KFServing InferenceService not ready?

${CLI_COMMANDS.map((c) => `usage: ${c.usage}`).join('\n')}

Exit status: 0 no error finding, 1 error findings, 2 bad usage or input, 3 cluster unreachable.
`;

/** The exit status an error means: 2 bad usage or input, 3 the cluster could not be reached, 4 anything else. */
function exitStatusOf(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'USAGE' || code === 'SNAPSHOT_INVALID') return 2;
  if (code === 'KUBE_UNREACHABLE') return 3;
  return 4;
}

export async function main(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(HELP);
    return 2;
  }
  if (name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(HELP);
    return 0;
  }
  const command = CLI_COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`isvc-doctor: unknown command "${name}"\n${HELP}`);
    return 2;
  }
  try {
    return await (await command.load())(rest, io);
  } catch (error) {
    const status = exitStatusOf(error);
    io.stderr.write(`isvc-doctor: ${status === 4 ? 'internal error: ' : ''}${status === 4 ? errorMessage(error, 2000) : (error as Error).message}\n`);
    return status;
  }
}
