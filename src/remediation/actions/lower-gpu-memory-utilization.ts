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
import { GPU_MEMORY_UTILIZATION_FLAG as FLAG, lowerUtilizationFor } from '../../changes/gpu-memory-utilization.js';
import type { Remediation } from '../../findings/types.js';
import { argFlagAction, offerArgChange } from '../runtime-arg-change.js';
import type { OfferContext, OfferingAction } from '../types.js';

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
  if (to === undefined) return null;
  return offerArgChange<Params>(ctx, {
    action: 'lower-gpu-memory-utilization',
    component: input.component,
    flag: FLAG,
    value: String(to),
    why: `the sampler's warm-up (${input.requests} sequences) ran out of GPU memory outside the ${input.current} vLLM keeps for weights and KV cache`,
    params: ({ component, path }) => ({ component, path, to, from: input.current }),
  });
}

export const lowerGpuMemoryUtilization: OfferingAction<Params, Input> = {
  ...argFlagAction<Params>({
    id: 'lower-gpu-memory-utilization',
    title: 'Lower --gpu-memory-utilization to leave GPU memory for the warm-up',
    flag: FLAG,
    params,
    value: (p) => p.to,
    lowering: true,
    riskNote: (p) =>
      `A new pod rolls out; vLLM keeps ${p.to} of each GPU for weights and KV cache, so the KV cache is smaller (fewer tokens cached at once) and the rest is left for the warm-up.`,
  }),
  offer,
};
