/**
 * `propose_fix`: plans a fix exactly as the bot does after a diagnosis (the change computed from what
 * the diagnosis just read, the diff, the risk) and never applies it. In `serve` the plan becomes a
 * proposal in the service's Slack channel, where the approval rules decide (its id and permalink
 * come back); over stdio the plan comes back with the kubectl command a person would run.
 */
import { z } from 'zod';
import { RemediationError } from '../../changes/remediation-error.js';
import { CodedError } from '../../core/coded-error.js';
import { answeredReadsOf } from '../../diagnosis/run-diagnosis.js';
import { makeKubeClients } from '../../kube/client.js';
import { ClusterWriter } from '../../kube/cluster-writer.js';
import { ACTIONS, actionById } from '../../remediation/actions/index.js';
import { mcpTool } from '../mcp-tool.js';
import { kubectlCommand, planJson, type ProposeFixRequest } from '../propose-fix.js';
import { clusterArg, nameArg, namespaceArg } from '../tool-schemas.js';
import { diagnoseFor } from './diagnose-tool.js';

const ACTION_IDS = Object.keys(ACTIONS) as [keyof typeof ACTIONS, ...Array<keyof typeof ACTIONS>];

export const proposeFixTool = mcpTool({
  name: 'propose_fix',
  title: 'Propose a fix for people to approve',
  description:
    'Plans a fix of an InferenceService (never applies it): diagnoses it, computes the change (the fields before and after, the object, the risk) and, on a shared server, posts it as a proposal in the Slack channel of the service, where an approver applies or rejects it (returns the proposal id and permalink). On a local server it returns the plan and the kubectl command a person would run. params default to those the diagnosis offers for the action (diagnose → findings[].remediation).',
  input: {
    name: nameArg,
    namespace: namespaceArg,
    action: z.enum(ACTION_IDS).describe('the remediation action (findings[].remediation.action of a diagnosis)'),
    params: z
      .record(z.unknown())
      .optional()
      .describe("the action's parameters (default: the ones the diagnosis offers, findings[].remediation.params)"),
    cluster: clusterArg,
  },
  output: {
    proposed: z.boolean().describe('true: posted for approval in Slack; false: returned only (nothing posted)'),
    proposalId: z.string().optional(),
    channel: z.string().optional(),
    permalink: z.string().nullable().optional(),
    expiresAt: z.string().optional(),
    findingCode: z.string().nullable(),
    plan: z.object({ action: z.string(), summary: z.string(), risk: z.string() }).passthrough(),
    kubectl: z.string().describe('the command a person would run to make the same change by hand'),
    applied: z.literal(false),
  },
  readOnly: false,
  async run(args, ctx) {
    const report = await diagnoseFor(ctx, args);
    const offer = report.findings.find((f) => f.remediation?.action === args.action && f.remediation.needsApproval);
    const params = args.params ?? offer?.remediation?.params;
    if (params === undefined)
      throw new CodedError(
        'REMEDIATION_NOT_OFFERED',
        `the diagnosis of ${report.target.namespace}/${report.target.name} offers no ${args.action} (root cause: ${report.rootCause ?? 'none'}); pass params to ask for it anyway`,
      );
    const request: ProposeFixRequest = {
      target: { namespace: report.target.namespace, name: report.target.name },
      action: args.action,
      params,
      findingCode: offer?.code ?? null,
      requester: ctx.requester,
    };
    if (ctx.deps.proposals) {
      const fix = await ctx.deps.proposals.post(request, report);
      return {
        proposed: true,
        proposalId: fix.proposalId,
        channel: fix.channel,
        permalink: fix.permalink,
        expiresAt: new Date(fix.expiresAt).toISOString(),
        findingCode: request.findingCode,
        plan: planJson(fix.plan),
        kubectl: kubectlCommand(fix.plan),
        applied: false,
      };
    }
    const action = actionById(args.action);
    if (!action) throw new RemediationError('REMEDIATION_UNKNOWN_ACTION', `no action ${args.action}`);
    const parsed = action.params.safeParse(params);
    if (!parsed.success)
      throw new RemediationError(
        'REMEDIATION_BAD_PARAMS',
        `${args.action}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
      );
    const cluster = await ctx.deps.cluster(args.cluster);
    const seen = answeredReadsOf(report);
    // from what the diagnosis just read: no request of its own, nothing written
    const plan = await action.plan(
      {
        writer: new ClusterWriter(makeKubeClients(cluster.kubeConfig)),
        target: request.target,
        settings: cluster.settings,
        ...(seen ? { seen } : {}),
      },
      parsed.data,
    );
    return {
      proposed: false,
      findingCode: request.findingCode,
      plan: planJson(plan),
      kubectl: kubectlCommand(plan),
      applied: false,
    };
  },
});
