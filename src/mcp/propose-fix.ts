/**
 * A fix asked for over MCP, as people see it: the plan (the change, the object, the risk, how it was
 * checked) and the kubectl command a person would run instead. Nothing here writes: over stdio the
 * plan comes back; in `serve` the proposal is posted where approvers decide (mcp-deps.ts).
 */
import { diffLines } from '../changes/field-changes.js';
import type { TargetRef } from '../core/target-ref.js';
import { describeRef } from '../kube/cluster-writer.js';
import type { Plan } from '../remediation/types.js';

export interface ProposeFixRequest {
  target: TargetRef;
  action: string;
  params: Record<string, unknown>;
  /** The finding that offered this fix (null: asked without one). */
  findingCode: string | null;
  /** Who asks, as the audit log and the proposal name it (e.g. "mcp:ci-agent"). */
  requester: string;
}

export interface ProposedFix {
  proposalId: string;
  channel: string;
  threadTs: string;
  /** The proposal message in Slack (null when Slack gave none). */
  permalink: string | null;
  expiresAt: number;
  plan: Plan;
}

/** `kubectl` resource name of an object: `inferenceservice.serving.kserve.io`, `pod`. */
function resourceOf(apiVersion: string, kind: string): string {
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  return `${kind.toLowerCase()}${group ? `.${group}` : ''}`;
}

const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The command a person runs to make the planned write by hand (check it first with --dry-run=server). */
export function kubectlCommand(plan: Plan): string {
  const w = plan.write;
  if (w.kind === 'delete-pods') return `kubectl delete pod ${w.pods.map((p) => p.name).join(' ')} -n ${w.namespace}`;
  return `kubectl patch ${resourceOf(w.target.apiVersion, w.target.kind)} ${w.target.name} -n ${w.target.namespace} --type ${w.patchType} -p ${quoted(JSON.stringify(w.patch))}`;
}

/** The plan as the tool returns it. */
export function planJson(plan: Plan): Record<string, unknown> {
  return {
    action: plan.action,
    params: plan.params,
    summary: plan.summary,
    object: describeRef(plan.target),
    resourceVersion: plan.resourceVersion,
    changes: plan.changes.map((c) => ({ path: c.path, before: c.before ?? null, after: c.after ?? null })),
    diff: diffLines(plan.changes),
    risk: plan.risk,
    riskNote: plan.riskNote,
    checkedBy: plan.checkedBy ?? 'dry-run',
  };
}
