/**
 * raise-memory-limit (OOM_KILLED): doubles the memory limit of the failing component in the
 * InferenceService (and its request when needed), capped by `remediation.maxMemory` and the
 * namespace's LimitRange (the same computation as the diagnosis' offer: src/remediation/memory-cap.ts). Risk: low (a new revision rolls out; more memory is reserved per pod).
 * RBAC: get/patch inferenceservices, list limitranges.
 */
import { z } from 'zod';
import { locateInferenceService } from '../find-inference-service.js';
import { mergePatchAt, valueAt } from '../field-changes.js';
import { describeMemoryChange, memoryPathPatchable, raisedMemory } from '../memory-cap.js';
import { patchAction } from '../patch-action.js';
import { RemediationError } from '../remediation-error.js';

const params = z.object({
  component: z.string().min(1).default('predictor'),
  /** Path of the `resources` object inside the InferenceService, e.g. ["spec","predictor","model","resources"]. */
  path: z.array(z.string().min(1)).min(2).max(12),
});

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

export const raiseMemoryLimit = patchAction<z.infer<typeof params>>({
  id: 'raise-memory-limit',
  title: 'Raise the memory limit',
  params,
  locate: locateInferenceService,
  async build(live, p, ctx) {
    if (p.path[0] !== 'spec' || p.path.at(-1) !== 'resources') throw new RemediationError('REMEDIATION_BAD_PARAMS', 'path must lead from spec to a resources object');
    if (!memoryPathPatchable(p.path)) throw new RemediationError('REMEDIATION_NOT_APPLICABLE', `${p.path.join('.')} is inside a list, which a merge patch cannot reach; edit it by hand`);
    const parent = valueAt(live, p.path.slice(0, -1));
    if (typeof parent !== 'object' || parent === null) throw new RemediationError('REMEDIATION_NOT_APPLICABLE', `${p.path.join('.')} does not exist in the live InferenceService`);
    const limit = str(valueAt(live, [...p.path, 'limits', 'memory']));
    const request = str(valueAt(live, [...p.path, 'requests', 'memory']));
    const change = raisedMemory({ limit, request, maxBytes: ctx.settings.maxMemoryBytes, limitRanges: await ctx.writer.limitRanges(ctx.target.namespace) });
    const resources = { limits: { memory: change.limit }, ...(change.request ? { requests: { memory: change.request } } : {}) };
    return {
      patch: mergePatchAt(p.path, resources),
      summary: describeMemoryChange(p.component, { ...(limit ? { limit } : {}), ...(request ? { request } : {}) }, change),
      risk: 'low',
      riskNote: 'A new revision rolls out with the higher limit; each pod reserves more memory on its node (it may not schedule if nodes are full).',
    };
  },
});
