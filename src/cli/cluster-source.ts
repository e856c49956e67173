/**
 * Where a CLI command reads the cluster from, as kubectl would: `--snapshot DIR` (served in-process
 * by the simulator, read over HTTP like a live cluster), or a kubeconfig (`--kubeconfig FILE`, else
 * KUBECONFIG, ~/.kube/config or the pod's service account) and `--context CTX`. The default
 * namespace is the context's, else `default`. A kubeconfig, context or cluster that does not exist
 * is bad input (UsageError, exit 2) with one line naming it, never an internal error.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';
import { cliCacheDir, type DiagnosisConfig } from '../config.js';
import { kubeConfigForServer, loadKubeConfig } from '../kube/client.js';
import { diskDiscoveryHints } from '../kube/discovery-disk-cache.js';
import { useDiscoveryHints } from '../kube/served-groups.js';
import { DEFAULT_KUBE_REQUEST_LIMITS, limitRequests, type KubeRequestLimits } from '../kube/request-limits.js';
import { signatureCatalog } from '../signatures/load-signatures.js';
import type { SignatureCatalog } from '../signatures/signature-catalog.js';
import { SignatureError } from '../signatures/signature-error.js';
import { diagnosisConfigFrom } from './diagnosis-config-from.js';
import { kubeLimitsFrom } from './kube-limits-from.js';
import { UsageError } from './usage-error.js';

/** The parseArgs options of the cluster flags, shared by the commands that read a cluster. */
export const CLUSTER_OPTIONS = {
  snapshot: { type: 'string' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  config: { type: 'string' },
} as const;

export interface ClusterFlags {
  snapshot?: string;
  kubeconfig?: string;
  context?: string;
  config?: string;
}

export interface OpenCluster {
  kubeConfig: KubeConfig;
  /** The namespace a command uses without -n: the kubeconfig context's, else `default`. */
  defaultNamespace: string;
  /** The `diagnosis:` config (--config FILE, else the snapshot's config.yaml). */
  config: Partial<DiagnosisConfig>;
  /** The log signatures: the config's files (checked before anything starts), then the shipped ones. */
  signatures: SignatureCatalog;
  close(): Promise<void>;
}

/** Checks the cluster flags against each other and the file system (before anything starts). */
export function checkClusterFlags(values: ClusterFlags): ClusterFlags {
  if (values.snapshot && (values.kubeconfig || values.context))
    throw new UsageError(`use either --snapshot or --kubeconfig/--context, not both`);
  if (values.snapshot && !existsSync(values.snapshot))
    throw new UsageError(`snapshot folder ${values.snapshot} does not exist`);
  if (values.kubeconfig && !existsSync(values.kubeconfig))
    throw new UsageError(`kubeconfig ${values.kubeconfig} does not exist`);
  if (values.config && !existsSync(values.config)) throw new UsageError(`config file ${values.config} does not exist`);
  const { snapshot, kubeconfig, context, config } = values;
  return {
    ...(snapshot ? { snapshot } : {}),
    ...(kubeconfig ? { kubeconfig } : {}),
    ...(context ? { context } : {}),
    ...(config ? { config } : {}),
  };
}

export async function openCluster(flags: ClusterFlags): Promise<OpenCluster> {
  const file = flags.config ? readConfigFile(flags.config) : null;
  let config = file ? diagnosisConfigFrom(file.raw, file.path) : {};
  // every request the command sends: a timeout each and the process's token bucket (config `kubernetes:`)
  const limits: KubeRequestLimits = file ? kubeLimitsFrom(file.raw, file.path) : { ...DEFAULT_KUBE_REQUEST_LIMITS };
  if (flags.snapshot) {
    // the simulator and the snapshot reader load only for --snapshot: a kubeconfig's diagnosis starts without them
    const [{ loadSnapshot }, { startSimulator }] = await Promise.all([
      import('../snapshot/load-snapshot.js'),
      import('../simulator/simulator.js'),
    ]);
    const snapshot = await loadSnapshot(flags.snapshot);
    if (!flags.config && snapshot.config !== undefined)
      config = diagnosisConfigFrom(snapshot.config, path.join(flags.snapshot, 'config.yaml'));
    const signatures = signaturesOf(config);
    const simulator = await startSimulator({ snapshot, port: 0 });
    return {
      kubeConfig: limitRequests(kubeConfigForServer(simulator.url), limits),
      defaultNamespace: 'default',
      config,
      signatures,
      close: () => simulator.close(),
    };
  }
  const signatures = signaturesOf(config);
  const kubeConfig = limitRequests(cliKubeConfig(flags), limits);
  // discovery hints on disk, as kubectl keeps its discovery cache: the first wave of reads goes out at once
  const cacheDir = cliCacheDir();
  if (cacheDir) useDiscoveryHints(diskDiscoveryHints(path.join(cacheDir, 'discovery')));
  const namespace = kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace;
  return { kubeConfig, defaultNamespace: namespace || 'default', config, signatures, close: async () => undefined };
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

/** The kubeconfig and context a command uses; UsageError when either does not exist or names a missing cluster. */
export function cliKubeConfig(flags: Pick<ClusterFlags, 'kubeconfig' | 'context'>): KubeConfig {
  let kc: KubeConfig;
  try {
    kc = loadKubeConfig({ ...(flags.kubeconfig ? { file: flags.kubeconfig } : {}) });
  } catch (error) {
    throw new UsageError(`cannot load the kubeconfig: ${firstLine(error)}`);
  }
  if (!flags.kubeconfig && isFallback(kc)) {
    throw new UsageError(
      'no kubeconfig: KUBECONFIG is unset, ~/.kube/config does not exist and this is not a pod; pass --kubeconfig FILE (or --snapshot DIR)',
    );
  }
  const source = flags.kubeconfig ?? 'the kubeconfig';
  if (flags.context) {
    if (!kc.getContextObject(flags.context)) {
      const known = kc.getContexts().map((c) => c.name);
      throw new UsageError(
        `context "${flags.context}" does not exist in ${source}${known.length ? ` (its contexts: ${known.join(', ')})` : ''}`,
      );
    }
    kc.setCurrentContext(flags.context);
  }
  const current = kc.getCurrentContext();
  const context = kc.getContextObject(current);
  if (!context)
    throw new UsageError(
      current
        ? `the current context "${current}" does not exist in ${source}`
        : `${source} has no current context: pass --context`,
    );
  if (!kc.getCurrentCluster())
    throw new UsageError(`context "${current}" names cluster "${context.cluster}", which ${source} does not have`);
  return kc;
}

/** client-node's stand-in when it finds no kubeconfig at all: one cluster "cluster" at http://localhost:8080. */
function isFallback(kc: KubeConfig): boolean {
  const [cluster, ...others] = kc.getClusters();
  return (
    others.length === 0 &&
    cluster?.name === 'cluster' &&
    cluster.server === 'http://localhost:8080' &&
    kc.getCurrentContext() === 'loaded-context'
  );
}

function firstLine(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).split('\n')[0]!;
}

function readConfigFile(file: string): { raw: unknown; path: string } {
  try {
    return { raw: parseYaml(readFileSync(file, 'utf8')), path: file };
  } catch (error) {
    const e = error as { linePos?: Array<{ line: number }>; message: string };
    throw new UsageError(
      `${file}${e.linePos?.[0] ? `:${e.linePos[0].line}` : ''}: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
}
