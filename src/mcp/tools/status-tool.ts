/** `status`: the InferenceServices of a namespace (or all), Ready or not, with the root cause of those that are not. */
import { z } from 'zod';
import { CodedError } from '../../core/coded-error.js';
import { listIsvcStatus } from '../../diagnosis/list-isvc-status.js';
import { statusItems, withRootCauses } from '../../diagnosis/status-rows.js';
import { UsageCodedError } from '../usage-coded-error.js';
import { mcpTool } from '../mcp-tool.js';
import { clusterArg, kubeName, statusShape } from '../tool-schemas.js';

export const statusTool = mcpTool({
  name: 'status',
  title: 'InferenceServices and their root causes',
  description:
    'The InferenceServices of a namespace (or of all namespaces): Ready or not, and the root cause code of each one that is not. Same items as `isvc-doctor status -o json`.',
  input: {
    namespace: kubeName('namespace')
      .optional()
      .describe("the namespace to list (default: the kubeconfig context's namespace, else default)"),
    allNamespaces: z.boolean().optional().describe('list every namespace'),
    cluster: clusterArg,
  },
  output: statusShape,
  readOnly: true,
  async run(args, ctx) {
    if (args.allNamespaces && args.namespace !== undefined)
      throw new UsageCodedError('use either namespace or allNamespaces, not both');
    const cluster = await ctx.deps.cluster(args.cluster);
    const namespace = args.allNamespaces ? null : (args.namespace ?? cluster.defaultNamespace);
    cluster.checkNamespace?.(namespace);
    const listed = await listIsvcStatus(cluster.kubeConfig, namespace);
    if (listed.length === 0 && listed.forbidden?.length)
      throw new CodedError(
        'KUBE_FORBIDDEN',
        `forbidden: cannot list inferenceservices (${listed.forbidden.join(', ')}) ${namespace === null ? 'in any namespace' : `in namespace ${namespace}`}`,
      );
    const rows = await withRootCauses(listed, async (target) => {
      const report = await cluster.diagnose(target);
      ctx.reports.remember(report);
      return report;
    });
    return { namespace, items: statusItems(rows) };
  },
});
