/**
 * lower-gpu-memory-utilization (GPU_OUT_OF_MEMORY): sets vLLM's `--gpu-memory-utilization` in the
 * model's args back to its default 0.9 when it was raised above it and the GPU ran out of memory in
 * the sampler's warm-up, after the weights and the KV cache took their share (vLLM's own error:
 * "lower max_num_seqs or gpu_memory_utilization"; `src/changes/gpu-memory-utilization.ts` decides
 * when the evidence supports it). Not offered for an OOM while the weights load (more GPUs or a
 * quantized model is the fix) or at or below the default (fewer sequences is). The args of a model
 * (`spec.predictor.model.args`) are patched; a custom container's sit in a list a merge patch cannot
 * reach: the exact edit is given by hand instead. Risk: medium (a new pod rolls out; the KV cache is
 * smaller, so fewer tokens are cached at once).
 * RBAC: get/patch inferenceservices.
 */
import { z } from 'zod';
import { diffLines, mergePatchAt, valueAt } from '../../changes/field-changes.js';
import { argValue, argsOf, patchableArgs, pathThroughList, withArg } from '../../changes/runtime-args.js';
import { GPU_MEMORY_UTILIZATION_FLAG as FLAG, lowerUtilizationFor } from '../../changes/gpu-memory-utilization.js';
import { RemediationError } from '../../changes/remediation-error.js';
import type { Remediation } from '../../findings/types.js';
import { componentsOf, refOf } from '../../kube/inference-service-view.js';
import { locateInferenceService } from '../find-inference-service.js';
import { paramText } from '../param-text.js';
import { patchAction } from '../patch-action.js';
import type { ActionOffer, OfferContext, OfferingAction } from '../types.js';

const params = z.object({
  component: z.string().min(1).default('predictor'),
  /** Path of the args list inside the InferenceService, e.g. ["spec","predictor","model","args"]. */
  path: z.array(z.string().min(1)).min(3).max(12),
  to: z.number().min(0.3).max(0.95),
  /** The fraction vLLM ran with (the pod's args, else its default). */
  from: z.number().nullish(),
});
type Params = z.infer<typeof params>;

/** `current`: the fraction the crashed container ran with; `requests`: the sampler warm-up's dummy requests. */
interface Input {
  component: string | undefined;
  current: number;
  requests: number;
}

function offer(ctx: OfferContext, input: Input): Remediation | null {
  const to = lowerUtilizationFor(input.current);
  const components = componentsOf(ctx.target.isvc);
  const component = components.find((c) => c.name === (input.component ?? 'predictor') && !c.canary) ?? components[0];
  if (to === undefined || !component) return null;
  const path = [...component.modelPath, 'args'];
  const target = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const why = `the sampler's warm-up (${input.requests} sequences) ran out of GPU memory outside the ${input.current} vLLM keeps for weights and KV cache`;
  if (pathThroughList(path))
    return {
      action: 'manual',
      summary: `Set --${FLAG}=${to} (from ${input.current}) in ${path.join('.')} by hand (a container list, which a merge patch cannot reach): ${why}`,
      target,
      needsApproval: false,
      manual: `kubectl -n ${ctx.target.namespace} edit inferenceservice ${ctx.target.name}   # ${path.join('.')}: --${FLAG}=${to}`,
    };
  const before = argsOf(valueAt(ctx.target.isvc, path));
  const change = withArg(before, FLAG, String(to));
  const offered: ActionOffer<Params> = {
    action: 'lower-gpu-memory-utilization',
    summary: `Set --${FLAG}=${to} (from ${input.current}): ${why}`,
    target,
    diff: diffLines([{ path: path.join('.'), before, after: change.args }]),
    needsApproval: true,
    params: { component: component.name, path, to, from: input.current },
  };
  return offered;
}

export const lowerGpuMemoryUtilization: OfferingAction<Params, Input> = {
  ...patchAction<Params>({
    id: 'lower-gpu-memory-utilization',
    title: 'Lower --gpu-memory-utilization to leave GPU memory for the warm-up',
    label: (_plan, q) => (paramText(q.to) ? `Set --${FLAG}=${paramText(q.to)}` : `Lower --${FLAG}`),
    params,
    locate: locateInferenceService,
    build(live, p) {
      const liveArgs = patchableArgs(live, p.path);
      const args = liveArgs;
      const set = argValue(args, FLAG);
      if (set !== undefined && Number(set) <= p.to)
        throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', `--${FLAG} is already ${set}`);
      const change = withArg(args, FLAG, String(p.to));
      return {
        patch: mergePatchAt(p.path, change.args),
        summary: `Set --${FLAG}=${p.to} on the ${p.component}${change.from ? ` (from ${change.from})` : ''}`,
        risk: 'medium',
        riskNote: `A new pod rolls out; vLLM keeps ${p.to} of each GPU for weights and KV cache, so the KV cache is smaller (fewer tokens cached at once) and the rest is left for the warm-up.`,
      };
    },
  }),
  offer,
};
