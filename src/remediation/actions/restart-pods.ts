/**
 * restart-pods (CRASH_LOOP, STORAGE_INIT_FAILED, STORAGE_URI_NOT_FOUND, STORAGE_ACCESS_DENIED, once
 * the cause is fixed): deletes the InferenceService's failed pods of one component (and revision)
 * so that their ReplicaSet recreates them at once instead of after the kubelet's back-off.
 *
 * Plan: a fresh list of the InferenceService's pods (its label, else its components' name
 * prefixes), the failed ones as `src/diagnosis/restart-remediation.ts` selects them (the report shows
 * the same list), each deleted with dryRun=All and a uid precondition. The proposal lists every pod
 * that will be deleted. Validate: each planned pod still exists with the same uid and still fails
 * (a pod's resourceVersion moves with every kubelet status update, so it is not compared).
 * Apply: one DELETE per planned pod with its uid as precondition; a pod already gone (404) or
 * replaced (409 on the uid) is not deleted again, so a retried apply repeats nothing.
 * Risk: medium (confirm dialog): it only helps after the cause is fixed; the failed instances' logs go.
 * RBAC: get/list/delete pods (and get inferenceservices to find the service).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { z } from 'zod';
import { podDeletions, restartablePods, RESTART_ACTION, RESTART_RISK_NOTE } from '../../diagnosis/restart-remediation.js';
import { WriteConflictError, type ObjectRef } from '../../kube/cluster-writer.js';
import { apiGroupOf } from '../../kube/inference-service-view.js';
import { inferenceServiceLabel } from '../../kube/resources.js';
import { findInferenceService } from '../find-inference-service.js';
import { RemediationError } from '../remediation-error.js';
import type { ActionContext, Plan, RemediationAction } from '../types.js';

const params = z.object({
  component: z.enum(['predictor', 'transformer', 'explainer']).default('predictor'),
  revision: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/).max(253).optional(),
});
type Params = z.infer<typeof params>;

/** The InferenceService's pods, fresh: by its label, else by its components' name prefixes (as the diagnosis finds them). */
async function podsOf(ctx: ActionContext, group: string): Promise<V1Pod[]> {
  const labelled = await ctx.writer.listPods(ctx.target.namespace, `${inferenceServiceLabel(group)}=${ctx.target.name}`);
  if (labelled.length > 0) return labelled;
  const prefixes = ['predictor', 'transformer', 'explainer'].map((c) => `${ctx.target.name}-${c}`);
  return (await ctx.writer.listPods(ctx.target.namespace, '')).filter((p) => {
    const labels = p.metadata?.labels ?? {};
    const owner = labels['serving.knative.dev/service'] ?? labels['app'] ?? p.metadata?.name ?? '';
    return prefixes.some((prefix) => owner.startsWith(prefix)) || labels['model'] === ctx.target.name;
  });
}

function podsOfPlan(plan: Plan): { namespace: string; pods: Array<{ name: string; uid?: string }> } {
  if (plan.write.kind !== 'delete-pods') throw new RemediationError('REMEDIATION_NOT_APPLICABLE', 'not a pod-delete plan');
  return plan.write;
}

export const restartPods: RemediationAction<Params> = {
  id: RESTART_ACTION,
  title: 'Restart the failed pods',
  params,
  async plan(ctx, p) {
    const isvc = await findInferenceService(ctx.writer, ctx.target);
    const failed = restartablePods(await podsOf(ctx, apiGroupOf(isvc.ref.apiVersion)), { component: p.component, ...(p.revision ? { revision: p.revision } : {}) });
    const where = `${p.component}${p.revision ? ` pods of revision ${p.revision}` : ' pods'}`;
    if (failed.length === 0) throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', `no failed ${where} of ${ctx.target.namespace}/${ctx.target.name} to restart`);
    const pods = failed.map((pod) => ({ name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' }));
    for (const pod of pods) await ctx.writer.deletePod(ctx.target.namespace, pod.name, { uid: pod.uid, dryRun: true });
    const target: ObjectRef = { apiVersion: 'v1', kind: 'Pod', namespace: ctx.target.namespace, name: pods.map((x) => x.name).join(', ') };
    return {
      action: RESTART_ACTION,
      params: p,
      summary: `Restart ${pods.length} failed ${where}: delete ${pods.map((x) => x.name).join(', ')} so ${pods.length === 1 ? 'it is' : 'they are'} recreated`,
      target,
      resourceVersion: failed.map((pod) => pod.metadata?.resourceVersion ?? '?').join(', '),
      isvc: isvc.ref,
      changes: podDeletions(failed),
      write: { kind: 'delete-pods', namespace: ctx.target.namespace, pods },
      risk: 'medium',
      riskNote: RESTART_RISK_NOTE,
    };
  },
  async validate(ctx, plan) {
    const { namespace, pods: planned } = podsOfPlan(plan);
    const live = await Promise.all(planned.map((x) => ctx.writer.get({ apiVersion: 'v1', kind: 'Pod', namespace, name: x.name })));
    if (live.every((pod) => pod === null)) return { ok: false, reason: 'gone', message: `the pods planned for a restart no longer exist (${planned.map((x) => x.name).join(', ')})` };
    const sel = { component: String(plan.params.component ?? 'predictor'), ...(typeof plan.params.revision === 'string' ? { revision: plan.params.revision } : {}) };
    for (const [i, x] of planned.entries()) {
      const pod = live[i] as unknown as V1Pod | null;
      if (!pod || pod.metadata?.uid !== x.uid) return { ok: false, reason: 'stale', message: `pod ${namespace}/${x.name} was replaced or deleted since the plan` };
      if (restartablePods([pod], sel).length === 0) return { ok: false, reason: 'stale', message: `pod ${namespace}/${x.name} no longer fails` };
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
