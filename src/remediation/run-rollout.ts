/**
 * `/isvc rollout NAME [-n NS] [OP]`. Without OP: one message with the revisions (role, spec % and
 * status %, ready or why not, the lag between spec and status) and Promote / Roll back / Set split
 * buttons, each of which asks for that operation. With OP (typed, or a button): a root message (or
 * the button's thread), the split, then the proposal for it, planned against the live
 * InferenceService with dryRun=All; an approver applies it, like any remediation. A name that is an
 * LLMInferenceService shows its routing group's split (llm-group-rollout.ts).
 */
import { RemediationError } from '../changes/remediation-error.js';
import { errorCode, errorMessage } from '../core/error-message.js';
import type { TargetRef } from '../core/target-ref.js';
import { ClusterUnreachableError } from '../kube/errors.js';
import type { KubeObject } from '../kube/schemas.js';
import { canaryShape, describeSplit } from './actions/canary-shape.js';
import { findInferenceService, findLlmInferenceService } from './find-inference-service.js';
import { llmRolloutAction } from './llm-group-rollout.js';
import type { ClusterWriter, ObjectRef } from '../kube/cluster-writer.js';
import { planProposal } from './plan-proposal.js';
import { postProposal } from './post-proposal.js';
import type { RemediationDeps } from './remediation-deps.js';
import { rolloutAction, type RolloutOp } from './rollout-op.js';
import { rolloutView, type RolloutView } from './rollout-view.js';

export interface RolloutRequest {
  target: TargetRef;
  op: RolloutOp | null;
  channel: string;
  user: string;
  threadTs?: string;
  /** The rollout message whose button asked: it shows the traffic once the change is verified. */
  viewTs?: string;
}

/** The InferenceService of the name, else the LLMInferenceService (the kind the target names first). */
async function findRolloutTarget(
  writer: ClusterWriter,
  target: TargetRef,
): Promise<{ ref: ObjectRef; object: KubeObject }> {
  if (target.kind !== 'llmisvc') {
    try {
      return await findInferenceService(writer, target);
    } catch (error) {
      if (!(error instanceof RemediationError) || error.code !== 'REMEDIATION_TARGET_NOT_FOUND') throw error;
    }
  }
  const llm = await findLlmInferenceService(writer, target.namespace, target.name);
  if (llm) return llm;
  throw new RemediationError(
    'REMEDIATION_TARGET_NOT_FOUND',
    `no InferenceService or LLMInferenceService ${target.namespace}/${target.name}`,
  );
}

/** One message: the revisions as the object states them, with the buttons for each operation. */
async function showRollout(deps: RemediationDeps, req: RolloutRequest): Promise<number> {
  let view: RolloutView;
  try {
    view = rolloutView((await findRolloutTarget(deps.writer, req.target)).object);
  } catch (error) {
    // the API server itself gave no answer: nothing to show in the channel; the asker is told why (commands/index)
    if (error instanceof ClusterUnreachableError) throw error;
    const code = errorCode(error);
    const rootTs = await deps.notify({
      kind: 'rollout-started',
      target: req.target,
      channel: req.channel,
      user: req.user,
      ...(req.threadTs ? { threadTs: req.threadTs } : {}),
    });
    await deps.notify({
      kind: 'rollout-target-unreadable',
      target: req.target,
      thread: { channel: req.channel, threadTs: req.threadTs ?? rootTs ?? '' },
      code: code === 'REMEDIATION_TARGET_NOT_FOUND' ? 'ISVC_NOT_FOUND' : code,
    });
    return 0;
  }
  await deps.notify({
    kind: 'rollout-view',
    target: req.target,
    channel: req.channel,
    user: req.user,
    view,
    ...(req.threadTs ? { threadTs: req.threadTs } : {}),
  });
  return 0;
}

/** The split as the InferenceService states it: spec percent plus the revisions in status. */
export function splitLines(isvc: KubeObject): string[] {
  if (isvc.kind === 'LLMInferenceService') {
    const view = rolloutView(isvc);
    return [
      view.splitText ?? view.splitField,
      ...view.revisions.map((r) => `${r.name}: ${r.statusPercent}% routed (spec ${r.specPercent}%)`),
    ];
  }
  const shape = canaryShape(isvc);
  if (shape.kind === 'standard')
    return [
      `spec.canary: ${describeSplit(shape.percent)}`,
      ...shape.canaries.map(
        (c) =>
          `spec.canary[${c.index}] ${c.name} (Deployment ${c.deployment}): trafficPercent ${c.trafficPercent}, ${c.status ? (c.status.ready ? 'ready' : 'not ready: KServe routes it nothing') : 'not reported yet'}`,
      ),
    ];
  const lines = [`canaryTrafficPercent ${shape.percent ?? '(not set)'}: ${describeSplit(shape.percent)}`];
  const status = (isvc.status ?? {}) as Record<string, any>;
  const traffic = (status.components?.predictor?.traffic ?? []) as Array<{
    revisionName?: string;
    percent?: number;
    tag?: string;
    latestRevision?: boolean;
  }>;
  for (const t of traffic) lines.push(`${t.revisionName ?? 'latest'}${t.tag ? ` (${t.tag})` : ''}: ${t.percent ?? 0}%`);
  if (typeof status.canaryTraffic === 'number')
    lines.push(`default: ${status.traffic ?? 100 - status.canaryTraffic}%, canary: ${status.canaryTraffic}%`);
  return lines;
}

export async function runRollout(deps: RemediationDeps, req: RolloutRequest): Promise<number> {
  const who = `${req.target.namespace}/${req.target.name}`;
  if (!req.op) return showRollout(deps, req);
  // a button of the rollout message asks in its thread: no second root message there
  const rootTs = req.threadTs
    ? null
    : await deps.notify({ kind: 'rollout-started', target: req.target, channel: req.channel, user: req.user });
  const thread = { channel: req.channel, threadTs: req.threadTs ?? rootTs ?? '' };
  let live: Awaited<ReturnType<typeof findRolloutTarget>>;
  try {
    live = await findRolloutTarget(deps.writer, req.target);
  } catch (error) {
    const code = errorCode(error);
    await deps.notify({
      kind: 'rollout-target-unreadable',
      target: req.target,
      thread,
      code: code === 'REMEDIATION_TARGET_NOT_FOUND' ? 'ISVC_NOT_FOUND' : code,
    });
    return 0;
  }
  if (!req.threadTs)
    await deps.notify({
      kind: 'rollout-split',
      target: req.target,
      thread,
      apiVersion: live.ref.apiVersion,
      lines: splitLines(live.object),
    });
  let posted = 0;
  for (const op of [req.op]) {
    let action: string = live.object.kind === 'LLMInferenceService' ? 'set-llm-group-weight' : rolloutAction(op).action;
    try {
      const asked = live.object.kind === 'LLMInferenceService' ? llmRolloutAction(op, live.object) : rolloutAction(op);
      action = asked.action;
      const params = asked.params;
      const p = await planProposal(deps, {
        action,
        params,
        target: req.target,
        findingCode: null,
        requester: req.user,
        channel: req.channel,
        threadTs: thread.threadTs,
        ...(req.viewTs ? { rolloutTs: req.viewTs } : {}),
      });
      await postProposal(deps, p);
      posted += 1;
    } catch (error) {
      deps.warn(`rollout ${action} ${who}: ${errorMessage(error)}`);
      await deps.notify({
        kind: 'rollout-op-not-offered',
        thread,
        action,
        code: errorCode(error),
        ...(error instanceof RemediationError ? { message: error.message } : {}),
      });
    }
  }
  return posted;
}
