/**
 * `isvc-doctor __complete WORD… CURRENT`: the completions of the last word, in the protocol of cobra
 * (kubectl's library), which the bash and zsh scripts of `isvc-doctor completion` and kubectl's
 * plugin completion (`kubectl_complete-isvc_doctor`) read: one candidate a line (a tab, then its
 * description), then `:DIRECTIVE`. Subcommands and flags come from the usage lines of
 * cli-commands.ts; InferenceService names, namespaces and contexts from the cluster the words name
 * (--snapshot, --kubeconfig, --context, -n), read with a deadline so a TAB never hangs.
 */
import { CLI_COMMANDS, commandNamed, type CliCommand } from './cli-commands.js';
import { usageSpec } from './usage-spec.js';

/** Cobra's ShellCompDirective bits. */
const DIRECTIVE = { default: 0, error: 1, noFileComp: 4, filterDirs: 16 } as const;

type Candidate = readonly [value: string, description?: string];

interface FlagSpec {
  names: string[];
  value?: string;
  description?: string;
}

interface Completion {
  candidates: Candidate[];
  directive: number;
}

export async function completeWords(args: string[]): Promise<string> {
  const words = args.length > 0 ? args : [''];
  const current = words.at(-1)!;
  let result: Completion;
  try {
    result = await complete(words.slice(0, -1), current);
  } catch {
    result = { candidates: [], directive: DIRECTIVE.noFileComp };
  }
  const lines = result.candidates
    .filter(([value]) => value.startsWith(current))
    .map(([value, description]) => (description ? `${value}\t${description}` : value));
  return `${[...lines, `:${result.directive}`].join('\n')}\n`;
}

const none = (): Completion => ({ candidates: [], directive: DIRECTIVE.noFileComp });
const words = (candidates: Candidate[]): Completion => ({ candidates, directive: DIRECTIVE.noFileComp });

async function complete(before: string[], current: string): Promise<Completion> {
  const commands = CLI_COMMANDS.map((c): Candidate => [c.name, c.summary]);
  if (before.length === 0) {
    return words(
      current.startsWith('-') ? [['--help'], ['--version']] : [...commands, ['help', 'help about a command']],
    );
  }
  const [name, ...rest] = before as [string, ...string[]];
  if (name === 'help') return rest.length === 0 ? words(commands) : none();
  const command = commandNamed(name);
  if (!command) return none();
  const flags = flagsOf(command);
  const previous = flags.find((f) => f.names.includes(rest.at(-1) ?? ''));
  if (previous?.value) return completeValue(previous.value, flagValues(rest, flags));
  if (current.startsWith('-')) {
    const used = new Set(rest);
    return words(
      flags
        .filter((f) => !f.names.some((n) => used.has(n)))
        .flatMap((f) => f.names.map((n): Candidate => [n, f.description])),
    );
  }
  const positional = usageSpec(command.usage).positionals[positionalsIn(rest, flags)];
  if (positional === undefined) return none();
  if (positional.includes('|')) return words(positional.split('|').map((v) => [v]));
  if (positional === 'NAME') return words((await serviceNames(flagValues(rest, flags))).map((n) => [n]));
  return none();
}

/** A command's flags: those of its usage line, with the long forms and meanings of its help. */
function flagsOf(command: CliCommand): FlagSpec[] {
  const specs: FlagSpec[] = usageSpec(command.usage).flags.map((f) => ({
    names: [f.flag],
    ...(f.value ? { value: f.value } : {}),
  }));
  for (const [form, meaning] of command.flags ?? []) {
    const names = form.split(/,?\s+/).filter((w) => w.startsWith('-'));
    const spec = specs.find((s) => s.names.some((n) => names.includes(n)));
    if (spec) {
      spec.names = [...new Set([...spec.names, ...names])];
      spec.description = meaning;
    }
  }
  return specs;
}

/** The flags given so far and their values ("-n x", "--namespace=x"), by every name of the flag. */
function flagValues(rest: string[], flags: FlagSpec[]): Map<string, string> {
  const values = new Map<string, string>();
  for (let i = 0; i < rest.length; i += 1) {
    const [word, inline] = rest[i]!.includes('=') ? rest[i]!.split(/=(.*)/s, 2) : [rest[i]!, undefined];
    const flag = flags.find((f) => f.names.includes(word!));
    if (!flag) continue;
    const value = flag.value ? (inline ?? rest[++i]) : 'true';
    if (value !== undefined) for (const n of flag.names) values.set(n, value);
  }
  return values;
}

function positionalsIn(rest: string[], flags: FlagSpec[]): number {
  let count = 0;
  for (let i = 0; i < rest.length; i += 1) {
    const flag = flags.find((f) => f.names.includes(rest[i]!));
    if (flag?.value) i += 1;
    else if (!rest[i]!.startsWith('-')) count += 1;
  }
  return count;
}

async function completeValue(placeholder: string, given: Map<string, string>): Promise<Completion> {
  if (placeholder.includes('|')) return words(placeholder.split('|').map((v) => [v]));
  if (placeholder === 'DIR') return { candidates: [], directive: DIRECTIVE.filterDirs };
  if (placeholder === 'FILE') return { candidates: [], directive: DIRECTIVE.default };
  if (placeholder === 'CTX')
    return words(
      (await contextsOf(given.get('--kubeconfig'))).map(
        (c) => [c.name, c.namespace ? `namespace ${c.namespace}` : undefined] as const,
      ),
    );
  if (placeholder === 'NAMESPACE') return words((await namespaceNames(given)).map((n) => [n]));
  return none();
}

/** The contexts of the kubeconfig (even one without a current context). */
async function contextsOf(file: string | undefined) {
  const { loadKubeConfig } = await import('../kube/client.js');
  return loadKubeConfig(file ? { file } : {}).getContexts();
}

async function kubeConfigOf(given: Map<string, string>) {
  const { cliKubeConfig } = await import('./cluster-source.js');
  const { limitRequests } = await import('../kube/request-limits.js');
  const kubeconfig = given.get('--kubeconfig');
  const context = given.get('--context');
  return limitRequests(cliKubeConfig({ ...(kubeconfig ? { kubeconfig } : {}), ...(context ? { context } : {}) }));
}

async function namespaceNames(given: Map<string, string>): Promise<string[]> {
  if (given.has('--snapshot'))
    return [...new Set((await snapshotServices(given.get('--snapshot')!)).map((o) => o.namespace))];
  const { makeKubeClients } = await import('../kube/client.js');
  const api = makeKubeClients(await kubeConfigOf(given)).core;
  const list = await withDeadline(api.listNamespace());
  return list.items.flatMap((n) => (n.metadata?.name ? [n.metadata.name] : []));
}

/** The InferenceServices of the namespace the words name (-n, else the context's), from the snapshot or the cluster. */
async function serviceNames(given: Map<string, string>): Promise<string[]> {
  const snapshot = given.get('--snapshot');
  if (snapshot)
    return (await snapshotServices(snapshot))
      .filter((o) => o.namespace === (given.get('-n') ?? 'default'))
      .map((o) => o.name);
  const { openCluster } = await import('./cluster-source.js');
  const { listIsvcStatus } = await import('../diagnosis/list-isvc-status.js');
  const kubeconfig = given.get('--kubeconfig');
  const context = given.get('--context');
  const cluster = await openCluster({ ...(kubeconfig ? { kubeconfig } : {}), ...(context ? { context } : {}) });
  return (await withDeadline(listIsvcStatus(cluster.kubeConfig, given.get('-n') ?? cluster.defaultNamespace))).map(
    (s) => s.name,
  );
}

async function snapshotServices(dir: string): Promise<Array<{ namespace: string; name: string }>> {
  const { loadSnapshot } = await import('../snapshot/load-snapshot.js');
  const objects = (await loadSnapshot(dir)).objects as Array<{
    kind?: string;
    metadata?: { name?: string; namespace?: string };
  }>;
  return objects
    .filter((o) => o.kind === 'InferenceService' && o.metadata?.name)
    .map((o) => ({ namespace: o.metadata!.namespace ?? 'default', name: o.metadata!.name! }));
}

/** How long a completion waits for the cluster (config.ts: 3 s unless ISVC_DOCTOR_COMPLETION_TIMEOUT_MS; loading the modules is not counted: a cold start on a busy machine is not an unresponsive cluster). */
async function withDeadline<T>(p: Promise<T>): Promise<T> {
  const { completionTimeoutMs } = await import('../config.js');
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error('no answer in time')), completionTimeoutMs())),
    ),
  ]).finally(() => clearTimeout(timer));
}
