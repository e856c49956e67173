/**
 * Builds a RemediationAction that merge-patches one object: plan reads the live object, asks the
 * action's `build` for the merge patch, pins it to the live resourceVersion, runs it with
 * dryRun=All and keeps the fields that changed (planned from a diagnosis' reads: the patch applied
 * to the object it read, no request; the dry run waits for the approval); dryRun sends the planned
 * patch with dryRun=All next to a fresh read of the object; validate compares resourceVersions;
 * apply sends the same patch plus an annotation naming the proposal, so that a retried apply
 * recognises its own write instead of repeating it (and a patch pinned to an old resourceVersion
 * gets 409).
 */
import type { z } from 'zod';
import { annotationChanges, fieldChanges, type FieldChange } from '../changes/field-changes.js';
import { applyMergePatch } from '../changes/merge-patch.js';
import { RemediationError } from '../changes/remediation-error.js';
import { ObjectGoneError, WriteConflictError, describeRef, type ObjectRef } from '../kube/cluster-writer.js';
import type { KubeObject } from '../kube/schemas.js';
import type { TargetRef } from '../core/target-ref.js';
import type { ActionContext, Plan, RemediationAction, Risk } from './types.js';

export const PROPOSAL_ANNOTATION = 'isvc-doctor.io/remediation';

export interface PatchBuild {
  patch: Record<string, unknown>;
  summary: string;
  risk: Risk;
  riskNote: string;
  /** The target is not healthy: its state, said before the change (the proposal and its confirm dialog). */
  targetState?: string;
  /** The service whose readiness shows the change worked, when not the diagnosed one (Plan.verifies). */
  verifies?: TargetRef;
}

export interface PatchActionSpec<P extends Record<string, unknown>> {
  id: string;
  title: string;
  /** The Approve button's words (RemediationAction.label); default: the title. */
  label?: RemediationAction<P>['label'];
  params: z.ZodType<P, z.ZodTypeDef, unknown>;
  /** The object to patch and the InferenceService it is for. */
  locate(ctx: ActionContext, params: P): Promise<{ target: ObjectRef; isvc: ObjectRef; live: KubeObject }>;
  /** Annotations the patch changes, compared like spec fields (metadata is otherwise left out of the diff). */
  annotations?: readonly string[];
  /** The merge patch for the live object (throws RemediationError when there is nothing safe to do). */
  build(live: KubeObject, params: P, ctx: ActionContext): Promise<PatchBuild> | PatchBuild;
}

function withMeta(patch: Record<string, unknown>, meta: Record<string, unknown>): Record<string, unknown> {
  const existing = (patch.metadata ?? {}) as Record<string, unknown>;
  return { ...patch, metadata: { ...existing, ...meta } };
}

export function patchAction<P extends Record<string, unknown>>(spec: PatchActionSpec<P>): RemediationAction<P> {
  const changesOf = (before: unknown, after: unknown): FieldChange[] => [
    ...fieldChanges(before, after),
    ...annotationChanges(before, after, spec.annotations ?? []),
  ];
  return {
    id: spec.id,
    title: spec.title,
    label: spec.label ?? (() => spec.title),
    params: spec.params,
    async plan(ctx, params) {
      const { target, isvc, live } = await spec.locate(ctx, params);
      const built = await spec.build(live, params, ctx);
      const resourceVersion = live.metadata.resourceVersion ?? '';
      const patch = withMeta(built.patch, { resourceVersion });
      // from the objects a diagnosis just read: their patched copy (the API server dry-runs it on approval)
      const after = ctx.seen
        ? applyMergePatch(live, patch)
        : await ctx.writer.patch(target, 'merge', patch, { dryRun: true });
      const changes = changesOf(live, after);
      if (changes.length === 0)
        throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', `${describeRef(target)} already has the change`);
      const plan: Plan = {
        action: spec.id,
        params,
        summary: built.summary,
        target,
        resourceVersion,
        isvc,
        changes,
        write: { kind: 'patch', target, patchType: 'merge', patch },
        risk: built.risk,
        riskNote: built.riskNote,
        ...(built.targetState ? { targetState: built.targetState } : {}),
        ...(built.verifies ? { verifies: built.verifies } : {}),
        checkedBy: ctx.seen ? 'reads' : 'dry-run',
      };
      return plan;
    },
    async dryRun(ctx, plan) {
      if (plan.write.kind !== 'patch') throw new RemediationError('REMEDIATION_NOT_APPLICABLE', 'not a patch plan');
      // one wave: the object as it is now, and the API server's answer to the patch pinned to the planned resourceVersion
      const [live, dry] = await Promise.all([
        ctx.writer.get(plan.target),
        ctx.writer.patch(plan.target, 'merge', plan.write.patch, { dryRun: true }),
      ]);
      if (!live) throw new ObjectGoneError(`${describeRef(plan.target)}: not found`);
      if (live.metadata.resourceVersion !== plan.resourceVersion)
        throw new WriteConflictError(
          `${describeRef(plan.target)} changed since the plan (resourceVersion ${plan.resourceVersion} → ${live.metadata.resourceVersion})`,
        );
      return changesOf(live, dry);
    },
    async validate(ctx, plan) {
      const live = await ctx.writer.get(plan.target);
      if (!live) return { ok: false, reason: 'gone', message: `${describeRef(plan.target)} no longer exists` };
      if (live.metadata.resourceVersion !== plan.resourceVersion) {
        return {
          ok: false,
          reason: 'stale',
          message: `${describeRef(plan.target)} changed since the plan (resourceVersion ${plan.resourceVersion} → ${live.metadata.resourceVersion})`,
        };
      }
      return { ok: true };
    },
    async apply(ctx, plan, proposalId) {
      if (plan.write.kind !== 'patch') throw new RemediationError('REMEDIATION_NOT_APPLICABLE', 'not a patch plan');
      const body = withMeta(plan.write.patch as Record<string, unknown>, {
        resourceVersion: plan.resourceVersion,
        annotations: {
          ...((plan.write.patch as { metadata?: { annotations?: object } }).metadata?.annotations ?? {}),
          [PROPOSAL_ANNOTATION]: proposalId,
        },
      });
      try {
        await ctx.writer.patch(plan.target, 'merge', body);
        return 'applied';
      } catch (error) {
        if (!(error instanceof WriteConflictError)) throw error;
        // A retry after a crash: our own earlier write moved the resourceVersion.
        const live = await ctx.writer.get(plan.target);
        if (live?.metadata.annotations?.[PROPOSAL_ANNOTATION] === proposalId) return 'already-applied';
        throw error;
      }
    },
  };
}
