import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { KubeConfig } from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';
import { diagnose } from '../app/diagnoser.js';
import { colorWanted, type DiagnosisConfig, type LinkTemplate } from '../config.js';
import { parseMemory } from '../core/memory-quantity.js';
import { nameError } from '../core/names.js';
import type { Report } from '../findings/types.js';
import { kubeConfigForServer, loadKubeConfig } from '../kube/client.js';
import { renderJsonReport } from '../render/json-report.js';
import { renderTextReport } from '../render/text-report.js';
import { startSimulator } from '../simulator/simulator.js';
import { loadSnapshot } from '../snapshot/load-snapshot.js';
import { signatureCatalog } from '../signatures/load-signatures.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import { SignatureError } from '../signatures/signature-error.js';
import { usageOf } from './cli-commands.js';
import type { CliIo } from './cli-io.js';
import { UsageError } from './usage-error.js';

const DIAGNOSE_USAGE = usageOf('diagnose');

export interface DiagnoseArgs {
  name: string;
  namespace: string;
  snapshot?: string;
  kubeconfig?: string;
  context?: string;
  output: 'text' | 'json';
  config?: string;
}

export function parseDiagnoseArgs(argv: string[]): DiagnoseArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        namespace: { type: 'string', short: 'n' },
        snapshot: { type: 'string' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        output: { type: 'string', short: 'o' },
        config: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]}\n${DIAGNOSE_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `missing the InferenceService NAME\n${DIAGNOSE_USAGE}` : `expected one NAME, got ${positionals.length}: ${positionals.join(' ')}\n${DIAGNOSE_USAGE}`);
  let name = positionals[0]!;
  let namespace = values.namespace;
  if (name.includes('/') && !namespace) [namespace, name] = name.split('/', 2) as [string, string];
  namespace ??= 'default';
  for (const [value, what] of [[name, 'InferenceService name'], [namespace, 'namespace']] as const) {
    const problem = nameError(value, what);
    if (problem) throw new UsageError(problem);
  }
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`-o must be text or json, not "${output}"`);
  if (values.snapshot && values.kubeconfig) throw new UsageError('use either --snapshot or --kubeconfig, not both');
  if (values.snapshot && !existsSync(values.snapshot)) throw new UsageError(`snapshot folder ${values.snapshot} does not exist`);
  if (values.kubeconfig && !existsSync(values.kubeconfig)) throw new UsageError(`kubeconfig ${values.kubeconfig} does not exist`);
  if (values.config && !existsSync(values.config)) throw new UsageError(`config file ${values.config} does not exist`);
  return { name, namespace, output, snapshot: values.snapshot, kubeconfig: values.kubeconfig, context: values.context, config: values.config };
}

/** The `diagnosis:` part of a config file (or of a snapshot's config.yaml), and `remediation.maxMemory` (the cap of an offered memory raise). */
export function diagnosisConfigFrom(raw: unknown, file: string): Partial<DiagnosisConfig> {
  const maxMemory = ((raw as { remediation?: { maxMemory?: unknown } } | null)?.remediation ?? undefined)?.maxMemory;
  const cap: Partial<DiagnosisConfig> = {};
  if (maxMemory !== undefined) {
    const bytes = typeof maxMemory === 'string' ? parseMemory(maxMemory) : undefined;
    if (bytes === undefined) throw new UsageError(`${file}: remediation.maxMemory: expected a memory quantity like 16Gi`);
    cap.maxMemoryBytes = bytes;
  }
  const section = (raw as { diagnosis?: unknown } | null)?.diagnosis;
  if (section === undefined || section === null) return cap;
  if (typeof section !== 'object') throw new UsageError(`${file}: diagnosis: expected a mapping`);
  const { links, knativeNamespace, signatures } = section as { links?: unknown; knativeNamespace?: unknown; signatures?: unknown };
  const out: Partial<DiagnosisConfig> = { ...cap };
  if (links !== undefined) {
    if (!Array.isArray(links) || !links.every((l) => l && typeof l.name === 'string' && typeof l.url === 'string')) {
      throw new UsageError(`${file}: diagnosis.links: expected a list of {name, url}`);
    }
    out.links = links as LinkTemplate[];
  }
  if (knativeNamespace !== undefined) {
    if (typeof knativeNamespace !== 'string') throw new UsageError(`${file}: diagnosis.knativeNamespace: expected a string`);
    out.knativeNamespace = knativeNamespace;
  }
  if (signatures !== undefined) {
    if (!Array.isArray(signatures) || !signatures.every((f) => typeof f === 'string' && f !== '')) throw new UsageError(`${file}: diagnosis.signatures: expected a list of file paths`);
    out.signatureFiles = (signatures as string[]).map((f) => path.resolve(path.dirname(path.resolve(file)), f));
  }
  return out;
}

function readConfigFile(file: string): Partial<DiagnosisConfig> {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    const e = error as { linePos?: Array<{ line: number }>; message: string };
    throw new UsageError(`${file}${e.linePos?.[0] ? `:${e.linePos[0].line}` : ''}: ${e.message.split('\n')[0]}`);
  }
  return diagnosisConfigFrom(raw, file);
}

/** The catalog with a config's signature files; a bad file is bad input (exit 2, one line). */
function signaturesOf(config: Partial<DiagnosisConfig>): SignatureCatalog {
  try {
    return signatureCatalog(config.signatureFiles ?? []);
  } catch (error) {
    if (error instanceof SignatureError) throw new UsageError(error.message);
    throw error;
  }
}

/** Runs a diagnosis against a snapshot (served in-process by the simulator, read over HTTP) or a live cluster. */
export async function runDiagnosis(args: DiagnoseArgs): Promise<Report> {
  const target = { namespace: args.namespace, name: args.name };
  let config = args.config ? readConfigFile(args.config) : {};
  if (args.snapshot) {
    const snapshot = await loadSnapshot(args.snapshot);
    if (!args.config && snapshot.config !== undefined) config = diagnosisConfigFrom(snapshot.config, path.join(args.snapshot, 'config.yaml'));
    const signatures = signaturesOf(config);
    const simulator = await startSimulator({ snapshot, port: 0 });
    try {
      return await diagnose(kubeConfigForServer(simulator.url), target, { config, signatures });
    } finally {
      await simulator.close();
    }
  }
  let kc: KubeConfig;
  try {
    kc = loadKubeConfig({ file: args.kubeconfig, context: args.context });
  } catch (error) {
    throw new UsageError(`cannot load the kubeconfig: ${(error as Error).message.split('\n')[0]}`);
  }
  return diagnose(kc, target, { config, signatures: signaturesOf(config) });
}

export async function runDiagnoseCommand(argv: string[], io: Pick<CliIo, 'stdout'> = { stdout: process.stdout }): Promise<number> {
  const args = parseDiagnoseArgs(argv);
  const report = await runDiagnosis(args);
  const color = args.output === 'text' && colorWanted((io.stdout as { isTTY?: boolean }).isTTY === true);
  io.stdout.write(args.output === 'json' ? `${renderJsonReport(report)}\n` : renderTextReport(report, { color }));
  return report.findings.some((f) => f.severity === 'error') ? 1 : 0;
}
