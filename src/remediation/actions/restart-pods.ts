/**
 * restart-pods (CRASH_LOOP, STORAGE_INIT_FAILED, STORAGE_URI_NOT_FOUND, STORAGE_ACCESS_DENIED, once
 * the cause is fixed): deletes the InferenceService's failed pods of one component (and revision)
 * so that their ReplicaSet recreates them at once instead of after the kubelet's back-off.
 *
 * Offer: the failed pods among those the diagnosis read. Plan: a fresh list of the InferenceService's
 * pods (its label, else its components' name prefixes), the failed ones selected the same way
 * (src/changes/failed-pods.ts, so the report names the pods the proposal deletes), each deleted with
 * dryRun=All and a uid precondition (planned from the pods a diagnosis just read: no request, the
 * dry-run deletes wait for the approval). Validate: each planned pod still exists with the same uid and
 * still fails (a pod's resourceVersion moves with every kubelet status update, so it is not compared).
 * Apply: one DELETE per planned pod with its uid as precondition; a pod already gone (404) or
 * replaced (409 on the uid) is not deleted again, so a retried apply repeats nothing.
 * Risk: medium (confirm dialog): it only helps after the cause is fixed; the failed instances' logs go.
 * RBAC: get/list/delete pods (and get inferenceservices to find the service).
 */
import { restartWaitsForFix } from '../../findings/catalog.js';
import type { V1Pod } from '@kubernetes/client-node';
import { z } from 'zod';
import { podDeletions, restartablePods, type RestartSelection } from '../../changes/failed-pods.js';
import { diffLines } from '../../changes/field-changes.js';
import { RemediationError } from '../../changes/remediation-error.js';
import type { Remediation } from '../../findings/types.js';
import { ObjectGoneError, WriteConflictError, type ObjectRef } from '../../kube/cluster-writer.js';
import { apiGroupOf, refOf } from '../../kube/inference-service-view.js';
import { podsNamedFor } from '../../kube/pod-labels.js';
import { inferenceServiceLabel } from '../../kube/resources.js';
import { findInferenceService } from '../find-inference-service.js';
import type { ActionContext, ActionOffer, OfferContext, OfferingAction, Plan } from '../types.js';

const ID = 'restart-pods';
const params = z.object({
  component: z.enum(['predictor', 'transformer', 'explainer']).default('predictor'),
  revision: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/)
    .max(253)
    .optional(),
});
type Params = z.infer<typeof params>;

const RISK_NOTE =
  "It only helps after the cause is fixed (the model uploaded, the credentials granted, the code or image repaired): the new pods run the same spec and fail the same way otherwise. Deleting a pod also drops its logs, including the failed instance's (`kubectl logs --previous`).";

/** The offer for a finding about failing pods (`pods`: those the diagnosis read); null when none of them would be deleted. */
function offer(ctx: OfferContext, input: { pods: V1Pod[] } & RestartSelection): Remediation | null {
  const failed = restartablePods(input.pods, input);
  if (failed.length === 0) return null;
  const names = failed.map((p) => p.metadata?.name ?? '?');
  const n = failed.length;
  const offered: ActionOffer<Params> = {
    action: ID,
    summary: `After fixing the cause: restart ${n} failed ${input.component} pod${n === 1 ? '' : 's'} (delete ${n === 1 ? 'it' : 'them'} so ${n === 1 ? 'it is' : 'they are'} recreated)`,
    target: refOf('Pod', ctx.target.namespace, names.join(', ')),
    diff: diffLines(podDeletions(failed)),
    needsApproval: true,
    params: {
      component: input.component as Params['component'],
      ...(input.revision ? { revision: input.revision } : {}),
    },
  };
  return offered;
}

/** The InferenceService's pods, fresh: by its label, else by its components' name prefixes (as the diagnosis finds them). */
async function podsOf(ctx: ActionContext, group: string): Promise<V1Pod[]> {
  const selector = `${inferenceServiceLabel(group)}=${ctx.target.name}`;
  // as the diagnosis that offered the restart read them moments ago (its report names these pods)
  const seen = ctx.seen?.pods(ctx.target.namespace, selector);
  if (seen && seen.length > 0) return seen;
  const labelled = await ctx.writer.listPods(ctx.target.namespace, selector);
  if (labelled.length > 0) return labelled;
  const seenAll = ctx.seen?.pods(ctx.target.namespace);
  return podsNamedFor(seenAll ?? (await ctx.writer.listPods(ctx.target.namespace, '')), ctx.target.name);
}

/** Each planned pod deleted with dryRun=All and its uid as precondition, together; a pod already gone is ObjectGoneError. */
async function dryRunDeletes(
  ctx: ActionContext,
  namespace: string,
  pods: Array<{ name: string; uid?: string }>,
): Promise<void> {
  const outcomes = await Promise.all(
    pods.map((pod) =>
      ctx.writer.deletePod(namespace, pod.name, { ...(pod.uid ? { uid: pod.uid } : {}), dryRun: true }),
    ),
  );
  const gone = pods.filter((_, i) => outcomes[i] === 'gone');
  if (gone.length > 0) throw new ObjectGoneError(`pod ${namespace}/${gone.map((x) => x.name).join(', ')}: not found`);
}

function podsOfPlan(plan: Plan): { namespace: string; pods: Array<{ name: string; uid?: string }> } {
  if (plan.write.kind !== 'delete-pods')
    throw new RemediationError('REMEDIATION_NOT_APPLICABLE', 'not a pod-delete plan');
  return plan.write;
}

export const restartPods: OfferingAction<Params, { pods: V1Pod[] } & RestartSelection> = {
  id: ID,
  title: 'Restart the failed pods',
  label: (_plan, _q, findingCode) =>
    restartWaitsForFix(findingCode) ? 'Restart pods (after the fix)' : 'Restart pods',
  params,
  offer,
  async plan(ctx, p) {
    const isvc = await findInferenceService(ctx.writer, ctx.target, ctx.seen);
    const failed = restartablePods(await podsOf(ctx, apiGroupOf(isvc.ref.apiVersion)), {
      component: p.component,
      ...(p.revision ? { revision: p.revision } : {}),
    });
    const where = `${p.component}${p.revision ? ` pods of revision ${p.revision}` : ' pods'}`;
    if (failed.length === 0)
      throw new RemediationError(
        'REMEDIATION_NOTHING_TO_CHANGE',
        `no failed ${where} of ${ctx.target.namespace}/${ctx.target.name} to restart`,
      );
    const pods = failed.map((pod) => ({ name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' }));
    const plannedFromReads = ctx.seen !== undefined;
    if (!plannedFromReads) await dryRunDeletes(ctx, ctx.target.namespace, pods);
    const target: ObjectRef = {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: ctx.target.namespace,
      name: pods.map((x) => x.name).join(', '),
    };
    return {
      action: ID,
      params: p,
      summary: `Restart ${pods.length} failed ${where}: delete ${pods.map((x) => x.name).join(', ')} so ${pods.length === 1 ? 'it is' : 'they are'} recreated`,
      target,
      resourceVersion: failed.map((pod) => pod.metadata?.resourceVersion ?? '?').join(', '),
      isvc: isvc.ref,
      changes: podDeletions(failed),
      write: { kind: 'delete-pods', namespace: ctx.target.namespace, pods },
      risk: 'medium',
      riskNote: RISK_NOTE,
      checkedBy: plannedFromReads ? 'reads' : 'dry-run',
    };
  },
  async dryRun(ctx, plan) {
    const { namespace, pods } = podsOfPlan(plan);
    await dryRunDeletes(ctx, namespace, pods);
    return plan.changes;
  },
  async validate(ctx, plan) {
    const { namespace, pods: planned } = podsOfPlan(plan);
    const live = await Promise.all(
      planned.map((x) => ctx.writer.get({ apiVersion: 'v1', kind: 'Pod', namespace, name: x.name })),
    );
    if (live.every((pod) => pod === null))
      return {
        ok: false,
        reason: 'gone',
        message: `the pods planned for a restart no longer exist (${planned.map((x) => x.name).join(', ')})`,
      };
    const sel = {
      component: String(plan.params.component ?? 'predictor'),
      ...(typeof plan.params.revision === 'string' ? { revision: plan.params.revision } : {}),
    };
    for (const [i, x] of planned.entries()) {
      const pod = live[i] as unknown as V1Pod | null;
      if (!pod || pod.metadata?.uid !== x.uid)
        return {
          ok: false,
          reason: 'stale',
          message: `pod ${namespace}/${x.name} was replaced or deleted since the plan`,
        };
      if (restartablePods([pod], sel).length === 0)
        return { ok: false, reason: 'stale', message: `pod ${namespace}/${x.name} no longer fails` };
    }
    return { ok: true };
  },
  async apply(ctx, plan) {
    const { namespace, pods: planned } = podsOfPlan(plan);
    let deleted = 0;
    for (const x of planned) {
      try {
        if ((await ctx.writer.deletePod(namespace, x.name, x.uid ? { uid: x.uid } : {})) === 'deleted') deleted += 1;
      } catch (error) {
        // 409 on the uid precondition: a pod of that name that is not the planned one (never delete it).
        if (!(error instanceof WriteConflictError)) throw error;
      }
    }
    return deleted > 0 ? 'applied' : 'already-applied';
  },
};
