/**
 * `isvc-doctor status [-n NAMESPACE | -A] [--snapshot DIR | --kubeconfig FILE [--context CTX]]
 * [-o text|json|yaml]`: the InferenceServices of a namespace (the kubeconfig context's by default)
 * or of all of them, listed a page at a time, Ready or not; each one that is not Ready is diagnosed
 * (a few at a time) for its root cause code. Exit 0 when all are Ready, 1 when one is not.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { diagnose } from '../app/diagnoser.js';
import { nameError } from '../core/names.js';
import { listIsvcStatus, type IsvcStatus } from '../diagnosis/list-isvc-status.js';
import { statusItems, withRootCauses, type StatusRow } from '../diagnosis/status-rows.js';
import { terminalSafe } from '../render/terminal-safe.js';
import { usageOf } from './cli-commands.js';
import type { CliIo } from './cli-io.js';
import {
  checkClusterFlags,
  CLUSTER_OPTIONS,
  openCluster,
  type ClusterFlags,
  type OpenCluster,
} from './cluster-source.js';
import { jsonToYaml, parseOutputFormat, printableJson, type OutputFormat } from './output-format.js';
import { parseFlags } from './parse-flags.js';
import { UsageError } from './usage-error.js';

const USAGE = usageOf('status');

interface StatusArgs extends ClusterFlags {
  namespace?: string;
  allNamespaces: boolean;
  output: OutputFormat;
}

export type { StatusRow } from '../diagnosis/status-rows.js';

function parseStatusArgs(argv: string[]): StatusArgs {
  const options = {
    namespace: { type: 'string', short: 'n' },
    'all-namespaces': { type: 'boolean', short: 'A' },
    output: { type: 'string', short: 'o' },
    ...CLUSTER_OPTIONS,
  } as const;
  const { values, positionals } = parseFlags(argv, options, USAGE);
  if (positionals.length > 0)
    throw new UsageError(
      `status takes no NAME (got "${positionals[0]}"); diagnose one with: isvc-doctor diagnose ${positionals[0]}\n${USAGE}`,
    );
  const allNamespaces = values['all-namespaces'] === true;
  if (allNamespaces && values.namespace !== undefined) throw new UsageError('use either -n NAMESPACE or -A, not both');
  const problem = values.namespace !== undefined ? nameError(values.namespace, 'namespace') : null;
  if (problem) throw new UsageError(problem);
  return {
    ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
    allNamespaces,
    output: parseOutputFormat(values.output),
    ...checkClusterFlags(values),
  };
}

/** The root cause of each service that is not Ready (diagnosis/status-rows.ts). */
function rootCausesOf(
  kubeConfig: KubeConfig,
  items: IsvcStatus[],
  options: Pick<OpenCluster, 'config' | 'signatures'>,
): Promise<StatusRow[]> {
  return withRootCauses(items, (target) =>
    diagnose(kubeConfig, target, { config: options.config, signatures: options.signatures }),
  );
}

function table(rows: StatusRow[], withNamespace: boolean): string {
  const readyText = (r: StatusRow) => (r.ready === null ? 'Unknown' : r.ready ? 'True' : 'False');
  const cells = [
    [...(withNamespace ? ['NAMESPACE'] : []), 'NAME', 'READY', 'ROOT CAUSE', 'URL'],
    ...rows.map((r) =>
      [
        ...(withNamespace ? [r.namespace] : []),
        r.kind ? `${r.name} (llmisvc)` : r.name,
        readyText(r),
        r.rootCause ?? '<none>',
        r.url ?? '<none>',
      ].map((c) => terminalSafe(c)),
    ),
  ];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return (
    cells.map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]! + 3))).join('')).join('\n') +
    '\n'
  );
}

function jsonOf(rows: StatusRow[]): string {
  return JSON.stringify({ items: statusItems(rows) }, null, 2);
}

export async function runStatusCommand(
  argv: string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const args = parseStatusArgs(argv);
  const cluster = await openCluster(args);
  let rows: StatusRow[];
  const namespace = args.allNamespaces ? null : (args.namespace ?? cluster.defaultNamespace);
  try {
    rows = await rootCausesOf(cluster.kubeConfig, await listIsvcStatus(cluster.kubeConfig, namespace), cluster);
  } finally {
    await cluster.close();
  }
  if (args.output === 'json') io.stdout.write(`${printableJson(jsonOf(rows))}\n`);
  else if (args.output === 'yaml') io.stdout.write(jsonToYaml(jsonOf(rows)));
  else if (rows.length === 0)
    io.stderr.write(
      `No InferenceServices found in ${namespace === null ? 'any namespace' : `namespace ${namespace}`}.\n`,
    );
  else io.stdout.write(table(rows, namespace === null));
  return rows.some((r) => r.ready !== true) ? 1 : 0;
}
