/**
 * `isvc-doctor diagnose NAME [-n NAMESPACE] [--kind llmisvc|isvc] [--snapshot DIR | --kubeconfig FILE [--context CTX]]
 * [-o text|json|yaml] [--config FILE]`: one diagnosis, printed for a person (text) or as one object
 * (json, yaml). Exit 1 when it has an error finding.
 */
import { colorWanted } from '../config.js';
import { nameError } from '../core/names.js';
import type { TargetKind } from '../core/target-ref.js';
import { runDiagnosis as runPlaybooks } from '../diagnosis/run-diagnosis.js';
import type { Report } from '../findings/types.js';
import { renderJsonReport } from '../render/json-report.js';
import { renderTextReport } from '../render/text-report.js';
import { usageOf } from './cli-commands.js';
import type { CliIo } from './cli-io.js';
import { checkClusterFlags, CLUSTER_OPTIONS, openCluster, type ClusterFlags } from './cluster-source.js';
import { jsonToYaml, parseOutputFormat, printableJson, type OutputFormat } from './output-format.js';
import { parseFlags } from './parse-flags.js';
import { UsageError } from './usage-error.js';

export { diagnosisConfigFrom } from './diagnosis-config-from.js';

const DIAGNOSE_USAGE = usageOf('diagnose');

export interface DiagnoseArgs extends ClusterFlags {
  name: string;
  /** -n, or NAMESPACE/NAME; else the kubeconfig context's namespace (resolved when the cluster is opened). */
  namespace?: string;
  /** --kind: which kind NAME means when an InferenceService and an LLMInferenceService share it. */
  kind?: TargetKind;
  output: OutputFormat;
}

export function parseDiagnoseArgs(argv: string[]): DiagnoseArgs {
  const { values, positionals } = parseFlags(
    argv,
    {
      namespace: { type: 'string', short: 'n' },
      output: { type: 'string', short: 'o' },
      kind: { type: 'string' },
      ...CLUSTER_OPTIONS,
    },
    DIAGNOSE_USAGE,
  );
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? `missing the InferenceService NAME\n${DIAGNOSE_USAGE}`
        : `expected one NAME, got ${positionals.length}: ${positionals.join(' ')}\n${DIAGNOSE_USAGE}`,
    );
  let name = positionals[0]!;
  let namespace = values.namespace;
  if (name.includes('/') && !namespace) [namespace, name] = name.split('/', 2) as [string, string];
  const checks: Array<[string, string]> = [
    [name, 'InferenceService name'],
    ...(namespace !== undefined ? [[namespace, 'namespace'] as [string, string]] : []),
  ];
  for (const [value, what] of checks) {
    const problem = nameError(value, what);
    if (problem) throw new UsageError(problem);
  }
  const output = parseOutputFormat(values.output);
  const kind = values.kind;
  if (kind !== undefined && kind !== 'llmisvc' && kind !== 'isvc')
    throw new UsageError(`--kind takes llmisvc or isvc (got "${kind}")\n${DIAGNOSE_USAGE}`);
  return {
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(kind !== undefined ? { kind } : {}),
    output,
    ...checkClusterFlags(values),
  };
}

/** Every registered playbook, loaded while the first wave of reads is out (run-diagnosis.ts). */
const loadPlaybooks = async () => (await import('../../playbooks/index.js')).ALL_PLAYBOOKS;

/**
 * Runs a diagnosis against a snapshot (served in-process by the simulator, read over HTTP) or a
 * live cluster: the runner with every registered playbook, as app/diagnoser.ts's `diagnose`, the
 * playbooks loaded while the cluster answers the first wave.
 */
export async function runDiagnosis(args: DiagnoseArgs): Promise<Report> {
  const cluster = await openCluster(args);
  try {
    return await runPlaybooks(
      loadPlaybooks,
      cluster.kubeConfig,
      {
        namespace: args.namespace ?? cluster.defaultNamespace,
        name: args.name,
        ...(args.kind ? { kind: args.kind } : {}),
      },
      { config: cluster.config, signatures: cluster.signatures },
    );
  } finally {
    await cluster.close();
  }
}

export async function runDiagnoseCommand(
  argv: string[],
  io: Pick<CliIo, 'stdout'> = { stdout: process.stdout },
): Promise<number> {
  const args = parseDiagnoseArgs(argv);
  const report = await runDiagnosis(args);
  const color = args.output === 'text' && colorWanted((io.stdout as { isTTY?: boolean }).isTTY === true);
  const json = args.output === 'text' ? '' : renderJsonReport(report);
  io.stdout.write(
    args.output === 'json'
      ? `${printableJson(json)}\n`
      : args.output === 'yaml'
        ? jsonToYaml(json)
        : renderTextReport(report, { color }),
  );
  return report.findings.some((f) => f.severity === 'error') ? 1 : 0;
}
