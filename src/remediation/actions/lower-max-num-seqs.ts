/**
 * lower-max-num-seqs (GPU_OUT_OF_MEMORY): sets vLLM's `--max-num-seqs` in the model's args below the
 * number of dummy requests its sampler warm-up ran out of GPU memory with, when the fraction of the
 * GPU vLLM keeps (`--gpu-memory-utilization`) is at or below its default, so lowering that is not the
 * fix (`lower-gpu-memory-utilization` is offered above the default; `src/changes/max-num-seqs.ts`
 * says to what). The args of a model (`spec.predictor.model.args`) are patched; a custom container's
 * sit in a list a merge patch cannot reach: the exact edit is given by hand instead. Risk: medium (a
 * new pod rolls out; fewer requests are batched together, so more wait under load).
 * RBAC: get/patch inferenceservices.
 */
import { z } from 'zod';
import { fewerSequencesFor, MAX_NUM_SEQS_FLAG as FLAG } from '../../changes/max-num-seqs.js';
import type { Remediation } from '../../findings/types.js';
import { argFlagAction, offerArgChange } from '../runtime-arg-change.js';
import type { OfferContext, OfferingAction } from '../types.js';

const params = z.object({
  component: z.string().min(1).default('predictor'),
  /** Path of the args list inside the InferenceService, e.g. ["spec","predictor","model","args"]. */
  path: z.array(z.string().min(1)).min(3).max(12),
  to: z.number().int().min(1).max(65536),
  /** The dummy requests the warm-up ran out of memory with (vLLM's max_num_seqs then). */
  from: z.number().int().nullish(),
});
type Params = z.infer<typeof params>;

/** `requests`: the sampler warm-up's dummy requests, from vLLM's line. */
interface Input {
  component: string | undefined;
  requests: number;
}

function offer(ctx: OfferContext, input: Input): Remediation | null {
  const to = fewerSequencesFor(input.requests);
  if (to === undefined) return null;
  return offerArgChange<Params>(ctx, {
    action: 'lower-max-num-seqs',
    component: input.component,
    flag: FLAG,
    value: String(to),
    why: `the sampler's warm-up of ${input.requests} sequences ran out of GPU memory; its memory grows with the sequences vLLM batches`,
    params: ({ component, path }) => ({ component, path, to, from: input.requests }),
  });
}

export const lowerMaxNumSeqs: OfferingAction<Params, Input> = {
  ...argFlagAction<Params>({
    id: 'lower-max-num-seqs',
    title: 'Lower --max-num-seqs so the sampler warm-up fits in GPU memory',
    flag: FLAG,
    params,
    value: (p) => p.to,
    lowering: true,
    riskNote: (p) =>
      `A new pod rolls out; vLLM batches at most ${p.to} sequences at once${p.from ? ` (the warm-up failed at ${p.from})` : ''}, so under load more requests wait in its queue.`,
  }),
  offer,
};
