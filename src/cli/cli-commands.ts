/**
 * The one registry of the CLI's subcommands: name, usage (the help and the shell completion are
 * generated from these) and a loader, so that a command's modules (the diagnosis engine, the
 * simulator, Bolt, BullMQ) load only when that command runs, and `--help` loads none of them.
 */
import type { CliIo } from './cli-io.js';

export type CliRun = (argv: string[], io: CliIo) => Promise<number>;

export interface CliCommand {
  name: string;
  /** The form, without "usage: ". Every flag the command takes appears in it (completion reads them here). */
  usage: string;
  /** One line: what the command does (`isvc-doctor --help`, completion descriptions). */
  summary: string;
  /** `[flag, meaning]` pairs that `isvc-doctor help NAME` prints. */
  flags?: ReadonlyArray<readonly [string, string]>;
  load(): Promise<CliRun>;
}

const CLUSTER_FLAGS = [
  ['--snapshot DIR', 'read the cluster from a snapshot folder (docs/snapshot-format.md) instead of a live cluster'],
  ['--kubeconfig FILE', "the kubeconfig to use (default: KUBECONFIG, ~/.kube/config, or the pod's service account)"],
  ['--context CTX', 'the kubeconfig context to use (default: its current-context)'],
  ['--config FILE', 'a config file whose diagnosis: section (links, knativeNamespace) and remediation.maxMemory apply'],
] as const;

export const CLI_COMMANDS: readonly CliCommand[] = [
  {
    name: 'diagnose',
    usage:
      'isvc-doctor diagnose NAME [-n NAMESPACE] [--kind llmisvc|isvc] [--snapshot DIR | --kubeconfig FILE [--context CTX]] [-o text|json|yaml] [--config FILE]',
    summary:
      'why an InferenceService or LLMInferenceService is not ready: the root cause first, the evidence, the next step',
    flags: [
      ['NAME', 'the InferenceService or LLMInferenceService (NAMESPACE/NAME also works)'],
      ['-n, --namespace NAMESPACE', "its namespace (default: the kubeconfig context's namespace, else default)"],
      ['--kind llmisvc|isvc', 'which kind NAME means when both exist (default: the InferenceService)'],
      ['-o, --output text|json|yaml', 'text for a person (default); json or yaml: one object (docs/cli.md)'],
      ...CLUSTER_FLAGS,
    ],
    load: async () => (await import('./diagnose-command.js')).runDiagnoseCommand,
  },
  {
    name: 'status',
    usage:
      'isvc-doctor status [-n NAMESPACE | -A] [--snapshot DIR | --kubeconfig FILE [--context CTX]] [-o text|json|yaml] [--config FILE]',
    summary: 'the InferenceServices of a namespace (or all), Ready or not, with the root cause of those that are not',
    flags: [
      [
        '-n, --namespace NAMESPACE',
        "the namespace to list (default: the kubeconfig context's namespace, else default)",
      ],
      ['-A, --all-namespaces', 'list every namespace'],
      ['-o, --output text|json|yaml', 'a table (default); json or yaml: {items: [...]}'],
      ...CLUSTER_FLAGS,
    ],
    load: async () => (await import('./status-command.js')).runStatusCommand,
  },
  {
    name: 'simulate',
    usage: 'isvc-doctor simulate --snapshot DIR [--port N] [--latency MS] [--kubeconfig-out FILE] [--request-log FILE]',
    summary: 'serve a snapshot folder as a Kubernetes API (for kubectl, client-node, tests and demos)',
    load: async () => (await import('./simulate-command.js')).runSimulateCommand,
  },
  {
    name: 'signatures',
    usage: 'isvc-doctor signatures test [FILE...]',
    summary:
      "test signature files (a team's, else the shipped ones): each entry's sample must match it (docs/signatures.md)",
    load: async () => (await import('./signatures-command.js')).runSignaturesCommand,
  },
  {
    name: 'serve',
    usage: 'isvc-doctor serve [--config FILE] [--role all|web|worker|watcher|agent] [--cluster NAME]',
    summary: 'run the Slack bot, the diagnosis workers and the unready-watcher (docs/bot.md)',
    load: async () => (await import('./serve-command.js')).runServeCommand,
  },
  {
    name: 'playground',
    usage: 'isvc-doctor playground [--port N] [--snapshot DIR ...]',
    summary: 'try the Slack bot in a browser: a stand-in Slack and a simulated cluster, no workspace needed',
    flags: [
      ['--port N', "the page's port (default 8080, or any free one when 8080 is taken; 0: any free port)"],
      ['--snapshot DIR ...', 'the clusters to start from (default: the bundled scenarios)'],
    ],
    load: async () => (await import('./playground-command.js')).runPlaygroundCommand,
  },
  {
    name: 'mcp',
    usage: 'isvc-doctor mcp [-n NAMESPACE] [--snapshot DIR | --kubeconfig FILE [--context CTX]] [--config FILE]',
    summary:
      "the Model Context Protocol over stdio: an AI assistant's tools to diagnose, list and explain (docs/mcp.md)",
    flags: [
      [
        '-n, --namespace NAMESPACE',
        "the tools' namespace when a call names none (default: the context's, else default)",
      ],
      ...CLUSTER_FLAGS,
    ],
    load: async () => (await import('./mcp-command.js')).runMcpCommand,
  },
  {
    name: 'completion',
    usage: 'isvc-doctor completion bash|zsh',
    summary: 'print a shell completion script: source <(isvc-doctor completion bash)',
    load: async () => (await import('./completion-command.js')).runCompletionCommand,
  },
];

export function commandNamed(name: string): CliCommand | undefined {
  return CLI_COMMANDS.find((c) => c.name === name);
}

/** "usage: isvc-doctor NAME …" of a registered command. */
export function usageOf(name: string): string {
  return `usage: ${commandNamed(name)?.usage ?? `isvc-doctor ${name}`}`;
}
