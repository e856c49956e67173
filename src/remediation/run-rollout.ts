/**
 * `/isvc rollout NAME [-n NS] [OP]`: a root message in the channel, the current traffic split
 * (TRAFFIC_SPLIT) in its thread, then proposals for the requested operation, or for promote,
 * roll back and a 90/10 split when none was given. Each proposal is planned against the live
 * InferenceService with dryRun=All and needs an approver, like any remediation.
 */
import type { TargetRef } from '../core/target-ref.js';
import type { KubeObject } from '../kube/schemas.js';
import { context, section, type SlackMessage } from '../render/slack/block-kit.js';
import { escapeMrkdwn } from '../render/slack/limits.js';
import { canaryShape, describeSplit } from './actions/canary-shape.js';
import { findInferenceService } from './find-inference-service.js';
import { planProposal } from './plan-proposal.js';
import { postProposal } from './post-proposal.js';
import { RemediationError } from '../changes/remediation-error.js';
import type { RemediationDeps } from './remediation-deps.js';
import { rolloutAction, type RolloutOp } from './rollout-op.js';

export interface RolloutRequest {
  target: TargetRef;
  op: RolloutOp | null;
  channel: string;
  user: string;
  threadTs?: string;
}

const DEFAULT_OPS: RolloutOp[] = [{ kind: 'promote' }, { kind: 'rollback' }, { kind: 'split', canaryPercent: 10 }];

/** The split as the InferenceService states it: spec percent plus the revisions in status. */
export function splitLines(isvc: KubeObject): string[] {
  const shape = canaryShape(isvc);
  const lines = [`canaryTrafficPercent: ${shape.percent ?? '(not set)'} → ${describeSplit(shape.percent)}`];
  const status = (isvc.status ?? {}) as Record<string, any>;
  const traffic = (status.components?.predictor?.traffic ?? []) as Array<{ revisionName?: string; percent?: number; tag?: string; latestRevision?: boolean }>;
  for (const t of traffic) lines.push(`${t.revisionName ?? 'latest'}${t.tag ? ` (${t.tag})` : ''}: ${t.percent ?? 0}%`);
  if (typeof status.canaryTraffic === 'number') lines.push(`default: ${status.traffic ?? 100 - status.canaryTraffic}%, canary: ${status.canaryTraffic}%`);
  return lines;
}

function note(text: string): SlackMessage {
  return { text, blocks: [context(`ℹ️ ${escapeMrkdwn(text)}`)] };
}

export async function runRollout(deps: RemediationDeps, req: RolloutRequest): Promise<number> {
  const who = `${req.target.namespace}/${req.target.name}`;
  const rootTs = await deps.poster.post(req.channel, { text: `Rollout of ${who} (requested by <@${req.user}>)`, blocks: [section(`🚦 Rollout of *${escapeMrkdwn(who)}* (requested by <@${req.user}>)`)] }, req.threadTs);
  const thread = req.threadTs ?? rootTs;
  let live;
  try {
    live = await findInferenceService(deps.writer, req.target);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'INTERNAL_ERROR';
    await deps.poster.post(req.channel, note(`${code === 'REMEDIATION_TARGET_NOT_FOUND' ? 'ISVC_NOT_FOUND' : code}: cannot read InferenceService ${who}`), thread);
    return 0;
  }
  const lines = splitLines(live.object).map((l) => `• ${escapeMrkdwn(l)}`);
  await deps.poster.post(req.channel, { text: `TRAFFIC_SPLIT of ${who}: ${splitLines(live.object)[0]}`, blocks: [section(`ℹ️ *\`TRAFFIC_SPLIT\`* of ${escapeMrkdwn(who)} (${live.ref.apiVersion})\n${lines.join('\n')}`)] }, thread);
  let posted = 0;
  for (const op of req.op ? [req.op] : DEFAULT_OPS) {
    const { action, params } = rolloutAction(op);
    try {
      const p = await planProposal(deps, { action, params, target: req.target, findingCode: null, requester: req.user, channel: req.channel, threadTs: thread });
      await postProposal(deps, p);
      posted += 1;
    } catch (error) {
      const code = error instanceof RemediationError ? error.code : ((error as { code?: string }).code ?? 'INTERNAL_ERROR');
      deps.warn(`rollout ${action} ${who}: ${error instanceof Error ? error.message : String(error)}`);
      await deps.poster.post(req.channel, note(`${action}: not offered (${code})${error instanceof RemediationError ? `: ${error.message}` : ''}`), thread);
    }
  }
  return posted;
}
