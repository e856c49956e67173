/**
 * lower-max-model-len (KV_CACHE_TOO_SMALL): sets `--max-model-len` in the runtime's args to the
 * number of tokens vLLM says its KV cache holds (its estimate, or the cache's size in tokens), so
 * one request of the model's context fits. The args of a model (`spec.predictor.model.args`) are
 * patched; a custom container's sit in a list a merge patch cannot reach: the exact edit is given
 * by hand instead. Risk: medium (a new pod rolls out; prompts longer than the new length are refused).
 * RBAC: get/patch inferenceservices.
 */
import { z } from 'zod';
import { MAX_MODEL_LEN_FLAG as FLAG } from '../../changes/max-model-len.js';
import type { Remediation } from '../../findings/types.js';
import { argFlagAction, offerArgChange } from '../runtime-arg-change.js';
import type { OfferContext, OfferingAction } from '../types.js';

const params = z.object({
  component: z.string().min(1).default('predictor'),
  /** Path of the args list inside the InferenceService, e.g. ["spec","predictor","model","args"]. */
  path: z.array(z.string().min(1)).min(3).max(12),
  tokens: z.number().int().min(256),
  from: z.string().nullish(),
});
type Params = z.infer<typeof params>;

function offer(ctx: OfferContext, input: { component: string | undefined; tokens: number }): Remediation | null {
  if (input.tokens < 256) return null;
  return offerArgChange<Params>(ctx, {
    action: 'lower-max-model-len',
    component: input.component,
    flag: FLAG,
    value: String(input.tokens),
    why: `the KV cache holds ${input.tokens} tokens`,
    params: ({ component, path, from }) => ({ component, path, tokens: input.tokens, from: from ?? null }),
  });
}

export const lowerMaxModelLen: OfferingAction<Params, { component: string | undefined; tokens: number }> = {
  ...argFlagAction<Params>({
    id: 'lower-max-model-len',
    title: 'Set --max-model-len to what the KV cache holds',
    flag: FLAG,
    params,
    value: (p) => p.tokens,
    riskNote: (p) => `A new pod rolls out; prompts and completions longer than ${p.tokens} tokens are refused.`,
  }),
  offer,
};
