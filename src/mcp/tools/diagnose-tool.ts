/** `diagnose`: why an InferenceService is not ready, as `isvc-doctor diagnose -o json` reports it. */
import { z } from 'zod';
import { CodedError } from '../../core/coded-error.js';
import type { TargetKind } from '../../core/target-ref.js';
import type { Report } from '../../findings/types.js';
import { renderJsonReport } from '../../render/json-report.js';
import { mcpTool, type ToolContext } from '../mcp-tool.js';
import { clusterArg, nameArg, namespaceArg, reportShape } from '../tool-schemas.js';

/** The report, remembered for the reports resource; the InferenceService itself unreadable (403): a coded error. */
export async function diagnoseFor(
  ctx: ToolContext,
  args: { name: string; namespace?: string | undefined; kind?: TargetKind | undefined; cluster?: string | undefined },
): Promise<Report> {
  const cluster = await ctx.deps.cluster(args.cluster);
  const namespace = args.namespace ?? cluster.defaultNamespace;
  cluster.checkNamespace?.(namespace);
  const report = await cluster.diagnose({ namespace, name: args.name, ...(args.kind ? { kind: args.kind } : {}) });
  ctx.reports.remember(report);
  const root = report.findings[0];
  if (report.target.apiVersion === null && root?.code === 'BOT_FORBIDDEN')
    throw new CodedError('BOT_FORBIDDEN', `${root.title}${root.next ? `; next: ${root.next}` : ''}`);
  return report;
}

export const diagnoseTool = mcpTool({
  name: 'diagnose',
  title: 'Diagnose an InferenceService',
  description:
    'Why a KServe InferenceService is not ready: the root cause first (a stable finding code), every finding with its evidence (conditions, events, log excerpts, redacted), the next step a person takes, and the fix the bot can propose. Same JSON as `isvc-doctor diagnose -o json`.',
  input: {
    name: nameArg,
    namespace: namespaceArg,
    kind: z
      .enum(['isvc', 'llmisvc'])
      .optional()
      .describe(
        "which kind the name means when both exist: isvc (InferenceService) or llmisvc (KServe's LLMInferenceService); unset: whichever exists, the InferenceService when both do",
      ),
    cluster: clusterArg,
  },
  output: reportShape,
  readOnly: true,
  async run(args, ctx) {
    return JSON.parse(renderJsonReport(await diagnoseFor(ctx, args))) as Record<string, unknown>;
  },
});
