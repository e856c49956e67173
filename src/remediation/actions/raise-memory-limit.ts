/**
 * raise-memory-limit (OOM_KILLED): doubles the memory limit of the failing component in the
 * InferenceService (and its request when needed), capped by `remediation.maxMemory` and the
 * namespace's LimitRange. Offer and plan compute the change the same way (src/changes/memory-cap.ts):
 * the offer from the diagnosis' reads, the plan from the live object. Already at the cap, or a
 * `resources` a merge patch cannot reach: a manual fix, no button.
 * Risk: low (a new revision rolls out; more memory is reserved per pod).
 * RBAC: get/patch inferenceservices, list limitranges.
 */
import { paramText } from '../param-text.js';
import { z } from 'zod';
import { mergePatchAt, diffLines, valueAt } from '../../changes/field-changes.js';
import {
  describeMemoryChange,
  memoryFieldChanges,
  memoryPathPatchable,
  raisedMemory,
  type MemoryChange,
} from '../../changes/memory-cap.js';
import { RemediationError } from '../../changes/remediation-error.js';
import type { Remediation } from '../../findings/types.js';
import { componentViewOf } from '../../diagnosis/field-path.js';
import { refOf } from '../../kube/inference-service-view.js';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import type { ActionOffer, OfferContext, OfferingAction } from '../types.js';

const params = z.object({
  component: z.string().min(1).default('predictor'),
  /** Path of the `resources` object inside the InferenceService, e.g. ["spec","predictor","model","resources"]. */
  path: z.array(z.string().min(1)).min(2).max(12),
  /** Shown in the report (not used by the plan, which reads the live object). */
  from: z.string().nullish(),
  to: z.string().optional(),
});
type Params = z.infer<typeof params>;

const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

/**
 * The offer for the component that was OOMKilled (the predictor when unknown), in the revision or
 * Deployment the killed pod ran (a canary's own fields, never the stable predictor's); null without one.
 */
async function offer(
  ctx: OfferContext,
  input: { component: string | undefined; revision?: string | undefined },
): Promise<Remediation | null> {
  const component = componentViewOf(ctx.target.isvc, input.component, input.revision);
  if (!component) return null;
  const from = {
    ...(component.memoryLimit ? { limit: component.memoryLimit } : {}),
    ...(component.memoryRequest ? { request: component.memoryRequest } : {}),
  };
  const target = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  // a list index as a person reads it: spec.canary[0].predictor…, spec.predictor.containers[0]…
  const resources = component.resourcesPath.join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]');
  let change: MemoryChange;
  try {
    change = raisedMemory({
      ...from,
      maxBytes: ctx.config.maxMemoryBytes,
      limitRanges: await ctx.reader.limitRanges(ctx.target.namespace),
    });
  } catch (error) {
    if (!(error instanceof RemediationError)) throw error;
    return {
      action: 'manual',
      summary: `No automatic raise (${error.code}): ${error.message}`,
      target,
      needsApproval: false,
      manual: `# ${resources}.limits.memory is ${from.limit ?? from.request}\nkubectl -n ${ctx.target.namespace} get limitrange -o yaml   # the namespace's cap`,
    };
  }
  if (!memoryPathPatchable(component.resourcesPath))
    return {
      action: 'manual',
      summary: `Raise the memory limit at ${resources}.limits.memory${from.limit ? ` from ${from.limit}` : ''} to ${change.limit} by hand (it is inside a list, which a merge patch cannot reach)`,
      target,
      needsApproval: false,
      manual: `kubectl -n ${ctx.target.namespace} edit inferenceservice ${ctx.target.name}   # ${resources}.limits.memory: ${change.limit}`,
    };
  const offered: ActionOffer<Params> = {
    action: 'raise-memory-limit',
    summary: describeMemoryChange(component.name, from, change),
    target,
    diff: diffLines(memoryFieldChanges(component.resourcesPath, from, change)),
    needsApproval: true,
    params: {
      component: component.name,
      path: [...component.resourcesPath],
      from: from.limit ?? null,
      to: change.limit,
    },
  };
  return offered;
}

export const raiseMemoryLimit: OfferingAction<
  Params,
  { component: string | undefined; revision?: string | undefined }
> = {
  ...patchAction<Params>({
    id: 'raise-memory-limit',
    title: 'Raise the memory limit',
    label: (plan, q) => {
      const to = paramText(q.to) ?? paramText(plan.changes.find((c) => /limits\.memory$/.test(c.path))?.after);
      return to ? `Raise to ${to}` : 'Raise the memory limit';
    },
    params,
    locate: locateInferenceService,
    async build(live, p, ctx) {
      if (p.path[0] !== 'spec' || p.path.at(-1) !== 'resources')
        throw new RemediationError('REMEDIATION_BAD_PARAMS', 'path must lead from spec to a resources object');
      if (!memoryPathPatchable(p.path))
        throw new RemediationError(
          'REMEDIATION_NOT_APPLICABLE',
          `${p.path.join('.')} is inside a list, which a merge patch cannot reach; edit it by hand`,
        );
      const parent = valueAt(live, p.path.slice(0, -1));
      if (typeof parent !== 'object' || parent === null)
        throw new RemediationError(
          'REMEDIATION_NOT_APPLICABLE',
          `${p.path.join('.')} does not exist in the live InferenceService`,
        );
      const limit = str(valueAt(live, [...p.path, 'limits', 'memory']));
      const request = str(valueAt(live, [...p.path, 'requests', 'memory']));
      const change = raisedMemory({
        limit,
        request,
        maxBytes: ctx.settings.maxMemoryBytes,
        limitRanges:
          ctx.seen?.limitRanges(ctx.target.namespace) ?? (await ctx.writer.limitRanges(ctx.target.namespace)),
      });
      const resources = {
        limits: { memory: change.limit },
        ...(change.request ? { requests: { memory: change.request } } : {}),
      };
      return {
        patch: mergePatchAt(p.path, resources),
        summary: describeMemoryChange(
          p.component,
          { ...(limit ? { limit } : {}), ...(request ? { request } : {}) },
          change,
        ),
        risk: 'low',
        riskNote:
          'A new revision rolls out with the higher limit; each pod reserves more memory on its node (it may not schedule if nodes are full).',
      };
    },
  }),
  offer,
};
