/**
 * What the MCP surface needs from the process that runs it: the cluster a call reads (stdio: the
 * person's kubeconfig and context, or a snapshot; `serve`: the bot's own), and where a proposed fix
 * goes (`serve`: the service's Slack channel; absent over stdio, where the plan comes back instead).
 */
import type { ClusterMcpCalls } from '../clusters/cluster-mcp-calls.js';
import type { KubeConfig } from '@kubernetes/client-node';
import type { TargetRef } from '../core/target-ref.js';
import type { Report } from '../findings/types.js';
import type { RemediationSettings } from '../remediation/types.js';
import type { ProposeFixRequest, ProposedFix } from './propose-fix.js';

export interface McpCluster {
  kubeConfig: KubeConfig;
  /** The namespace a call without one uses (the context's, else `default`; `-n` over stdio). */
  defaultNamespace: string;
  /** A diagnosis with every registered playbook, as the CLI and the bot run it. */
  diagnose(target: TargetRef): Promise<Report>;
  /** What a planned fix may do (the memory cap, Knative's namespace). */
  settings: RemediationSettings;
  /** Throws a coded error for a namespace (null: every one) this server may not read; absent: any. */
  checkNamespace?(namespace: string | null): void;
}

/**
 * The multi-cluster web process' clusters: it reads none itself; a call naming one (or none: the
 * default) runs on that cluster's agent (its job queue), which answers with the tool's JSON.
 */
export interface McpClusters extends ClusterMcpCalls {
  /** The configured clusters, as Slack users name them. */
  names: readonly string[];
  /** `defaultCluster` (a single cluster is its own); null: a call must name one. */
  defaultName: string | null;
}

export interface McpDeps {
  /**
   * The cluster a call reads; `name` is the call's `cluster` argument (stdio: a kubeconfig context).
   * Throws a coded error (USAGE) for a cluster this server does not have.
   */
  cluster(name?: string): Promise<McpCluster>;
  /** Multi-cluster (the web process): every tool with a `cluster` argument runs on that cluster's agent instead. */
  clusters?: McpClusters;
  /** `serve`: posts a planned fix as a proposal people approve in Slack. Absent: the plan and the kubectl command come back. */
  proposals?: {
    post(request: ProposeFixRequest, report: Report): Promise<ProposedFix>;
  };
}
