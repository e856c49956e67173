/**
 * The Model Context Protocol surface: the tools of tools/index.ts and the resources (the findings
 * catalog, docs/findings.md, the last report of each service this process diagnosed), on the
 * official SDK's server. The transports are the caller's: stdio (`isvc-doctor mcp`) or Streamable
 * HTTP (`serve` with MCP_PORT). A tool's failure is a tool error with its code; the server goes on.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ALL_PLAYBOOKS } from '../../playbooks/index.js';
import { packageVersion } from '../core/package-version.js';
import { RUNNER_CODES } from '../diagnosis/run-diagnosis.js';
import { FINDING_CODES, type FindingCode } from '../findings/catalog.js';
import { renderFindingsDoc } from '../findings/findings-doc.js';
import { LastReports } from './last-reports.js';
import { z } from 'zod';
import type { McpClusters, McpDeps } from './mcp-deps.js';
import type { McpTool, ToolContext } from './mcp-tool.js';
import { toolError, toolResult } from './tool-result.js';
import { explainCode } from './tools/explain-code-tool.js';
import { MCP_TOOLS } from './tools/index.js';
import { clusterChoice, unknownCluster } from './tool-schemas.js';
import { UsageCodedError } from './usage-coded-error.js';

export const CATALOG_URI = 'isvc-doctor://findings/catalog';
export const FINDINGS_DOC_URI = 'isvc-doctor://docs/findings.md';
export const REPORT_URI = (namespace: string, name: string, cluster?: string) =>
  cluster === undefined
    ? `isvc-doctor://reports/${namespace}/${name}`
    : `isvc-doctor://clusters/${cluster}/reports/${namespace}/${name}`;

const INSTRUCTIONS =
  'isvc-doctor diagnoses KServe InferenceServices deterministically. Start with `status` (which services are not ready) or `diagnose` (why one is not): the rootCause is a stable finding code (`explain_code` says what it means), each finding carries its evidence and the next step a person takes. `propose_fix` never changes the cluster: it plans a fix for people to approve.';

/** Which files emit each code (docs/findings.md's last column). */
function emitters(): Map<FindingCode, string[]> {
  const by = new Map<FindingCode, string[]>();
  const add = (code: FindingCode, what: string) => by.set(code, [...(by.get(code) ?? []), what]);
  for (const code of RUNNER_CODES) add(code, 'the runner');
  for (const p of ALL_PLAYBOOKS) for (const code of p.emits) add(code, `playbooks/${p.id}.ts`);
  return by;
}

/** The tools that read a cluster: those with a `cluster` argument. */
export const readsCluster = (tool: McpTool) => 'cluster' in tool.input;

/** Multi-cluster: the call runs on the named (else the default) cluster's agent; the result says which. */
async function runOnCluster(
  clusters: McpClusters,
  tool: McpTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<Record<string, unknown>> {
  const { cluster, ...rest } = args;
  const name = typeof cluster === 'string' ? cluster : clusters.defaultName;
  if (name === null) throw new UsageCodedError(`which cluster? pass cluster (clusters: ${clusters.names.join(', ')})`);
  if (!clusters.names.includes(name)) throw new UsageCodedError(unknownCluster(name, clusters.names));
  const json = await clusters.call(name, tool.name, rest, ctx.requester);
  if (tool.name === 'diagnose') ctx.reports.rememberJson(json, name);
  return { ...json, cluster: name };
}

function registerTool(server: McpServer, tool: McpTool, ctx: ToolContext): void {
  const clusters = readsCluster(tool) ? ctx.deps.clusters : undefined;
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: clusters
        ? { ...tool.input, cluster: clusterChoice(clusters.names, clusters.defaultName) }
        : tool.input,
      outputSchema: clusters
        ? { ...tool.output, cluster: z.string().describe('the configured cluster that was read') }
        : tool.output,
      annotations: {
        title: tool.title,
        readOnlyHint: tool.readOnly,
        ...(tool.readOnly ? {} : { destructiveHint: false }),
        openWorldHint: false,
      },
    },
    async (args: Record<string, unknown>) => {
      try {
        return toolResult(clusters ? await runOnCluster(clusters, tool, args, ctx) : await tool.run(args, ctx));
      } catch (error) {
        return toolError(error);
      }
    },
  );
}

/** A kept report as a listed resource. */
function reportResource(r: ReturnType<LastReports['list']>[number]) {
  return {
    uri: REPORT_URI(r.namespace, r.name, r.cluster),
    name: `${r.cluster ? `${r.cluster}: ` : ''}${r.namespace}/${r.name}`,
    description: `last diagnosis${r.cluster ? ` (cluster ${r.cluster})` : ''} ${new Date(r.at).toISOString()}: ${r.rootCause ?? 'nothing wrong'}`,
    mimeType: 'application/json',
  };
}

/** Multi-cluster: the report of namespace/name when exactly one cluster's agent answered for it. */
function onlyClusterReport(reports: LastReports, namespace: string, name: string): string | undefined {
  const clusters = reports.clustersOf(namespace, name);
  return clusters.length === 1 ? reports.json(namespace, name, clusters[0]) : undefined;
}

/** Not kept, or kept for several clusters: then the message names each cluster's URI. */
function reportNotFound(reports: LastReports, namespace: string, name: string): string {
  const clusters = reports.clustersOf(namespace, name);
  return clusters.length > 1
    ? `REPORT_AMBIGUOUS: ${namespace}/${name} was diagnosed on ${clusters.length} clusters; read one: ${clusters.map((c) => REPORT_URI(namespace, name, c)).join(', ')}`
    : `REPORT_NOT_FOUND: no diagnosis of ${namespace}/${name} in this process yet`;
}

export interface IsvcDoctorMcp {
  server: McpServer;
  reports: LastReports;
}

export interface McpServerOptions {
  /** Shared by the servers of one process (HTTP makes one per request). */
  reports?: LastReports;
  /** Who calls, as proposals and the audit log name it (default "mcp:local"). */
  requester?: string;
}

export function createMcpServer(deps: McpDeps, options: McpServerOptions = {}): IsvcDoctorMcp {
  const reports = options.reports ?? new LastReports();
  const server = new McpServer(
    { name: 'isvc-doctor', version: packageVersion() },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } },
  );
  const ctx: ToolContext = { deps, reports, requester: options.requester ?? 'mcp:local' };
  for (const tool of MCP_TOOLS) registerTool(server, tool, ctx);

  server.registerResource(
    'findings-catalog',
    CATALOG_URI,
    {
      title: 'Finding codes',
      description: 'Every finding code: severity, when it is reported, evidence, what it explains, its next step',
      mimeType: 'application/json',
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ codes: FINDING_CODES.map((c) => explainCode(c)) }, null, 2),
        },
      ],
    }),
  );
  server.registerResource(
    'findings-doc',
    FINDINGS_DOC_URI,
    { title: 'docs/findings.md', description: 'The finding codes as a document', mimeType: 'text/markdown' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: renderFindingsDoc(emitters()) }],
    }),
  );
  server.registerResource(
    'last-report',
    new ResourceTemplate('isvc-doctor://reports/{namespace}/{name}', {
      list: async () => ({
        resources: reports
          .list()
          .filter((r) => r.cluster === undefined)
          .map(reportResource),
      }),
    }),
    {
      title: 'Last report of a service',
      description: 'The last diagnosis of an InferenceService made by this server (a diagnose or status call)',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const [namespace, name] = [String(variables.namespace), String(variables.name)];
      const json = reports.json(namespace, name) ?? onlyClusterReport(reports, namespace, name);
      if (json === undefined) throw new Error(reportNotFound(reports, namespace, name));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: json }] };
    },
  );
  server.registerResource(
    'last-report-of-cluster',
    new ResourceTemplate('isvc-doctor://clusters/{cluster}/reports/{namespace}/{name}', {
      list: async () => ({
        resources: reports
          .list()
          .filter((r) => r.cluster !== undefined)
          .map(reportResource),
      }),
    }),
    {
      title: "Last report of a service on one cluster (multi-cluster: as that cluster's agent answered)",
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const [cluster, namespace, name] = [
        String(variables.cluster),
        String(variables.namespace),
        String(variables.name),
      ];
      const json = reports.json(namespace, name, cluster);
      if (json === undefined)
        throw new Error(
          `REPORT_NOT_FOUND: no diagnosis of ${namespace}/${name} on cluster ${cluster} in this process yet`,
        );
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: json }] };
    },
  );
  return { server, reports };
}
