/**
 * `isvc-doctor mcp [-n NAMESPACE] [--snapshot DIR | --kubeconfig FILE [--context CTX]] [--config FILE]`:
 * the Model Context Protocol over stdio, for a person's own assistant. The cluster is read as the
 * CLI reads it (cluster-source.ts): the same kubeconfig, context and namespace rules; a tool's
 * `cluster` argument names another context of the same kubeconfig. stdout carries only the
 * protocol; the command ends when the client closes stdin.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Writable } from 'node:stream';
import { DEFAULT_DIAGNOSIS_CONFIG } from '../config.js';
import { nameError } from '../core/names.js';
import { runDiagnosis } from '../diagnosis/run-diagnosis.js';
import type { McpCluster } from '../mcp/mcp-deps.js';
import { createMcpServer } from '../mcp/mcp-server.js';
import { usageOf } from './cli-commands.js';
import type { CliIo } from './cli-io.js';
import {
  checkClusterFlags,
  CLUSTER_OPTIONS,
  openCluster,
  type ClusterFlags,
  type OpenCluster,
} from './cluster-source.js';
import { parseFlags } from './parse-flags.js';
import { UsageError } from './usage-error.js';

const USAGE = usageOf('mcp');

interface McpArgs extends ClusterFlags {
  namespace?: string;
}

function parseMcpArgs(argv: string[]): McpArgs {
  const { values, positionals } = parseFlags(
    argv,
    { namespace: { type: 'string', short: 'n' }, ...CLUSTER_OPTIONS },
    USAGE,
  );
  if (positionals.length > 0) throw new UsageError(`mcp takes no arguments (got "${positionals[0]}")\n${USAGE}`);
  const problem = values.namespace !== undefined ? nameError(values.namespace, 'namespace') : null;
  if (problem) throw new UsageError(problem);
  return { ...(values.namespace !== undefined ? { namespace: values.namespace } : {}), ...checkClusterFlags(values) };
}

const loadPlaybooks = async () => (await import('../../playbooks/index.js')).ALL_PLAYBOOKS;

/** The tools' cluster: an opened kubeconfig context or snapshot, with the CLI's diagnosis. */
export function mcpCluster(open: OpenCluster, namespace: string | undefined): McpCluster {
  return {
    kubeConfig: open.kubeConfig,
    defaultNamespace: namespace ?? open.defaultNamespace,
    settings: {
      maxMemoryBytes: open.config.maxMemoryBytes ?? DEFAULT_DIAGNOSIS_CONFIG.maxMemoryBytes,
      knativeNamespace: open.config.knativeNamespace ?? DEFAULT_DIAGNOSIS_CONFIG.knativeNamespace,
    },
    diagnose: (target) =>
      runDiagnosis(loadPlaybooks, open.kubeConfig, target, { config: open.config, signatures: open.signatures }),
  };
}

export async function runMcpCommand(
  argv: string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  const args = parseMcpArgs(argv);
  // a kubeconfig, context or snapshot that does not exist is bad usage before the protocol starts (exit 2)
  const primary = await openCluster(args);
  const others = new Map<string, Promise<OpenCluster>>();
  const contextNamed = (name: string): Promise<OpenCluster> => {
    if (args.snapshot) throw new UsageError(`this server reads the snapshot ${args.snapshot}: omit cluster`);
    let open = others.get(name);
    if (!open) {
      open = openCluster({ ...args, context: name });
      others.set(name, open);
      open.catch(() => others.delete(name));
    }
    return open;
  };
  const { server } = createMcpServer({
    cluster: async (name) =>
      name === undefined || name === args.context
        ? mcpCluster(primary, args.namespace)
        : mcpCluster(await contextNamed(name), args.namespace),
  });
  const transport = new StdioServerTransport(stdin as NodeJS.ReadStream, io.stdout as Writable);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  // the client went away: end as it would on its own close
  const end = () => void server.close().catch(() => undefined);
  stdin.once('end', end);
  stdin.once('close', end);
  try {
    await closed;
  } finally {
    stdin.off('end', end);
    stdin.off('close', end);
    await Promise.all([
      primary.close(),
      ...[...others.values()].map((o) =>
        o.then(
          (c) => c.close(),
          () => undefined,
        ),
      ),
    ]);
  }
  return 0;
}
