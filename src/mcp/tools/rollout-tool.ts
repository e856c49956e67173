/**
 * `rollout`: the canary split as the InferenceService states it (the view `/isvc rollout NAME` shows); for
 * an LLMInferenceService, its routing group's split by weight.
 */
import { z } from 'zod';
import { CodedError } from '../../core/coded-error.js';
import { makeKubeClients } from '../../kube/client.js';
import { ClusterReader } from '../../kube/cluster-reader.js';
import { rolloutView } from '../../remediation/rollout-view.js';
import { mcpTool } from '../mcp-tool.js';
import { clusterArg, nameArg, namespaceArg } from '../tool-schemas.js';

export const rolloutTool = mcpTool({
  name: 'rollout',
  title: 'Canary rollout of an InferenceService',
  description:
    "The revisions of an InferenceService (stable, canary, latest): the traffic percent the spec asks for and the percent the status routes, whether each is ready and why not, and the lag between spec and status. For an LLMInferenceService: the members of its routing group (KServe 0.20), the share each one's weight asks for and the share it is routed.",
  input: { name: nameArg, namespace: namespaceArg, cluster: clusterArg },
  output: {
    target: z.object({ namespace: z.string(), name: z.string(), apiVersion: z.string() }),
    canaryPercent: z.number().nullable(),
    revisions: z.array(
      z
        .object({
          name: z.string(),
          role: z.enum(['stable', 'canary', 'latest']),
          specPercent: z.number(),
          statusPercent: z.number(),
          ready: z.boolean().nullable(),
        })
        .passthrough(),
    ),
    lag: z.string().nullable(),
  },
  readOnly: true,
  async run(args, ctx) {
    const cluster = await ctx.deps.cluster(args.cluster);
    const namespace = args.namespace ?? cluster.defaultNamespace;
    cluster.checkNamespace?.(namespace);
    const reader = new ClusterReader(makeKubeClients(cluster.kubeConfig));
    const found =
      (await reader.inferenceService(namespace, args.name)) ?? (await reader.llmInferenceService(namespace, args.name));
    if (!found)
      throw new CodedError(
        'ISVC_NOT_FOUND',
        `No InferenceService or LLMInferenceService "${args.name}" in namespace ${namespace}`,
      );
    const view = rolloutView(found.object);
    return {
      target: { namespace, name: args.name, apiVersion: view.apiVersion },
      canaryPercent: view.canaryPercent ?? null,
      revisions: view.revisions,
      lag: view.lag,
    };
  },
});
