/**
 * The shapes remediations share: an action (offer / plan / validate / apply, one file each under
 * actions/), the plan it computes against the live object, and the contexts it runs in.
 */
import type { z } from 'zod';
import type { FieldChange } from '../changes/field-changes.js';
import type { TargetRef } from '../core/target-ref.js';
import type { DiagnosisContext } from '../diagnosis/playbook.js';
import type { Remediation } from '../findings/types.js';
import type { AnsweredReads } from '../kube/cluster-reader.js';
import type { ClusterWriter, ObjectRef, PatchKind } from '../kube/cluster-writer.js';

export type Risk = 'low' | 'medium' | 'high';

/** The write a plan will make when approved. */
export type PlannedWrite =
  | { kind: 'patch'; target: ObjectRef; patchType: PatchKind; patch: unknown }
  | { kind: 'delete-pods'; namespace: string; pods: Array<{ name: string; uid?: string }> };

export interface Plan {
  action: string;
  params: Record<string, unknown>;
  summary: string;
  /** The object that changes. */
  target: ObjectRef;
  /** Its resourceVersion when planned (the approval is for that version only). */
  resourceVersion: string;
  /** The InferenceService the remediation is for (Event, verification). */
  isvc: ObjectRef;
  changes: FieldChange[];
  write: PlannedWrite;
  risk: Risk;
  riskNote: string;
  /** The target of the change is not healthy: its state, said before the change ("canary …: 0 of 1 pods ready, CrashLoopBackOff"). */
  targetState?: string;
  /**
   * The service whose readiness shows the change worked, when it is not the one the proposal is for:
   * traffic taken off a failing member of a routing group is verified on the member that takes it.
   */
  verifies?: TargetRef;
  /**
   * How the change was checked when planned: 'dry-run' (the API server accepted the write with
   * dryRun=All and `changes` is its answer) or 'reads' (computed from the objects the diagnosis read
   * moments ago; the API server's dry run comes when a person approves, before the write).
   * Absent: 'dry-run'.
   */
  checkedBy?: 'dry-run' | 'reads';
}

/** What the remediation settings of the config give the actions. */
export interface RemediationSettings {
  /** Upper bound for raise-memory-limit, bytes. */
  maxMemoryBytes: number;
  knativeNamespace: string;
}

export interface ActionContext {
  writer: ClusterWriter;
  settings: RemediationSettings;
  /** The InferenceService the remediation is about. */
  target: TargetRef;
  /**
   * What the diagnosis that offered this fix read moments ago (only when a proposal is planned
   * right after it): plan with these instead of reading again, and leave the dry run to the
   * approval. Approval re-validates against the live objects and dry-runs the write before making
   * it, so a plan from them is as safe as a fresh one.
   */
  seen?: AnsweredReads;
}

export type Validation = { ok: true } | { ok: false; reason: 'stale' | 'gone'; message: string };

export type ApplyOutcome = 'applied' | 'already-applied';

/**
 * What an action's offer reads: the diagnosed InferenceService, the diagnosis' memoised reader and
 * its settings. A playbook passes its DiagnosisContext; an offer never writes.
 */
export type OfferContext = Pick<DiagnosisContext, 'target' | 'reader' | 'config'>;

/** An action's offer as a report carries it: its own id and params (typed), and the change it would make. */
export interface ActionOffer<P extends Record<string, unknown>> extends Remediation {
  params: P;
  needsApproval: true;
}

export interface RemediationAction<P extends Record<string, unknown> = Record<string, unknown>> {
  id: string;
  title: string;
  /**
   * What its Approve button says it does ("Raise to 512Mi", "Roll back to …-00001"), from the plan and
   * the proposal's params (opaque to everyone but the action); `findingCode`: the finding it fixes.
   */
  label(plan: Plan, params: Record<string, unknown>, findingCode: string | null): string;
  params: z.ZodType<P, z.ZodTypeDef, unknown>;
  /**
   * Computes the change against the live object and runs it with dryRun=All; with `ctx.seen`, from
   * those objects and without a request of its own (`checkedBy: 'reads'`).
   */
  plan(ctx: ActionContext, params: P): Promise<Plan>;
  /**
   * Sends the planned write with dryRun=All and returns the fields the API server's answer changes.
   * Throws what the write would: WriteConflictError or ObjectGoneError when the object moved,
   * ForbiddenError or WriteRejectedError when the API server refuses.
   */
  dryRun(ctx: ActionContext, plan: Plan): Promise<FieldChange[]>;
  /** Whether the live object is still the one planned against. */
  validate(ctx: ActionContext, plan: Plan): Promise<Validation>;
  /** Makes the write, once: a write already made for this proposal is recognised, not repeated. */
  apply(ctx: ActionContext, plan: Plan, proposalId: string): Promise<ApplyOutcome>;
}

/** An action a finding can offer: `offer` computes, from what the diagnosis read, what `plan` will change (or a fix to make by hand). */
export interface OfferingAction<P extends Record<string, unknown>, I> extends RemediationAction<P> {
  offer(ctx: OfferContext, input: I): Promise<Remediation | null> | Remediation | null;
}
