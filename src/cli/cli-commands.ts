/**
 * The one registry of the CLI's subcommands: name, usage (the help is generated from these) and a
 * loader, so that a command's modules (the diagnosis engine, the simulator, Bolt, BullMQ) load only
 * when that command runs, and `--help` loads none of them.
 */
import type { CliIo } from './cli-io.js';

export type CliRun = (argv: string[], io: CliIo) => Promise<number>;

export interface CliCommand {
  name: string;
  /** The form, without "usage: ". */
  usage: string;
  load(): Promise<CliRun>;
}

export const CLI_COMMANDS: readonly CliCommand[] = [
  {
    name: 'diagnose',
    usage: 'isvc-doctor diagnose NAME [-n NAMESPACE] [--snapshot DIR | --kubeconfig FILE [--context CTX]] [-o text|json] [--config FILE]',
    load: async () => (await import('./diagnose-command.js')).runDiagnoseCommand,
  },
  {
    name: 'simulate',
    usage: 'isvc-doctor simulate --snapshot DIR [--port N] [--latency MS] [--kubeconfig-out FILE] [--request-log FILE]',
    load: async () => (await import('./simulate-command.js')).runSimulateCommand,
  },
  {
    name: 'signatures',
    usage: 'isvc-doctor signatures test [FILE...]',
    load: async () => (await import('./signatures-command.js')).runSignaturesCommand,
  },
  {
    name: 'serve',
    usage: 'isvc-doctor serve [--config FILE] [--role all|web|worker|watcher]',
    load: async () => (await import('./serve-command.js')).runServeCommand,
  },
  {
    name: 'playground',
    usage: 'isvc-doctor playground [--port N] [--snapshot DIR ...]',
    load: async () => (await import('./playground-command.js')).runPlaygroundCommand,
  },
];

/** "usage: isvc-doctor NAME …" of a registered command. */
export function usageOf(name: string): string {
  return `usage: ${CLI_COMMANDS.find((c) => c.name === name)?.usage ?? `isvc-doctor ${name}`}`;
}
