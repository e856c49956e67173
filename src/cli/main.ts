/**
 * The isvc-doctor command: the subcommands of cli-commands.ts, `--version`, `help [COMMAND]`,
 * `COMMAND --help`, and the hidden `__complete` the completion scripts call. The one place that maps
 * errors to exit statuses: 2 bad usage or input, 3 cluster unreachable; never a stack trace.
 */
import { errorMessage } from '../core/error-message.js';
import { terminalSafe } from '../render/terminal-safe.js';
import { packageVersion } from '../core/package-version.js';
import { CLI_COMMANDS, commandNamed, type CliCommand } from './cli-commands.js';
import type { CliIo } from './cli-io.js';

export type { CliIo } from './cli-io.js';

export interface MainOptions {
  /** How the user called it: "isvc-doctor", or "kubectl isvc-doctor" as a kubectl plugin. */
  program?: string;
}

const PROGRAM = 'isvc-doctor';

function overview(): string {
  const width = Math.max(...CLI_COMMANDS.map((c) => c.name.length)) + 2;
  return `isvc-doctor: why is my KServe / KFServing InferenceService not ready?

commands:
${CLI_COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary ?? ''}`.trimEnd()).join('\n')}

${CLI_COMMANDS.map((c) => `usage: ${c.usage}`).join('\n')}
       isvc-doctor help COMMAND | COMMAND --help | --version

Exit status: 0 nothing wrong, 1 an error finding (diagnose) or a service not Ready (status),
2 bad usage or input, 3 the cluster could not be reached.
`;
}

function commandHelp(c: CliCommand): string {
  const width = Math.max(0, ...(c.flags ?? []).map(([f]) => f.length)) + 2;
  const flags = c.flags?.length
    ? `\n${c.flags.map(([f, meaning]) => `  ${f.padEnd(width)}${meaning}`).join('\n')}\n`
    : '';
  return `${c.summary ? `${c.summary}\n\n` : ''}usage: ${c.usage}\n${flags}`;
}

/** The help text as the user called the program (a kubectl plugin's usage lines say "kubectl isvc-doctor"). */
function asCalled(text: string, program: string): string {
  return program === PROGRAM ? text : text.replace(/(^|usage: |\s{7})isvc-doctor /gm, `$1${program} `);
}

/** The exit status an error means: 2 bad usage or input, 3 the cluster could not be reached, 4 anything else. */
function exitStatusOf(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'USAGE' || code === 'SNAPSHOT_INVALID') return 2;
  if (code === 'KUBE_UNREACHABLE' || code === 'KUBE_TIMEOUT') return 3;
  return 4;
}

const wantsHelp = (args: string[]) => args.some((a) => a === '-h' || a === '--help');

export async function main(
  argv: string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
  options: MainOptions = {},
): Promise<number> {
  const program = options.program ?? PROGRAM;
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(asCalled(overview(), program));
    return 2;
  }
  if (name === '--version') {
    io.stdout.write(`isvc-doctor ${packageVersion()}\n`);
    return 0;
  }
  if (name === '__complete') {
    const { completeWords } = await import('./complete-words.js');
    io.stdout.write(await completeWords(rest));
    return 0;
  }
  if (name === '-h' || name === '--help' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    const command = topic === undefined ? undefined : commandNamed(topic);
    if (topic !== undefined && !command) {
      io.stderr.write(
        `${program}: unknown command "${topic}"; the commands: ${CLI_COMMANDS.map((c) => c.name).join(', ')}\n`,
      );
      return 2;
    }
    io.stdout.write(asCalled(command ? commandHelp(command) : overview(), program));
    return 0;
  }
  const command = commandNamed(name);
  if (!command) {
    io.stderr.write(`${program}: unknown command "${terminalSafe(name)}"\n${asCalled(overview(), program)}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    io.stdout.write(asCalled(commandHelp(command), program));
    return 0;
  }
  try {
    return await (await command.load())(rest, io);
  } catch (error) {
    const status = exitStatusOf(error);
    // an error's message may quote the cluster or a file (an API server's answer, a YAML line): redacted and shown, not obeyed
    const message = status === 4 ? errorMessage(error, 2000) : (error as Error).message;
    const { redactText } = await import('../logs/redact.js'); // loaded only when a command fails
    io.stderr.write(`${program}: ${status === 4 ? 'internal error: ' : ''}${terminalSafe(redactText(message))}\n`);
    return status;
  }
}
