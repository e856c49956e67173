/**
 * lower-max-model-len (KV_CACHE_TOO_SMALL): sets `--max-model-len` in the runtime's args to the
 * number of tokens vLLM says its KV cache holds (its estimate, or the cache's size in tokens), so
 * one request of the model's context fits. The args of a model (`spec.predictor.model.args`) are
 * patched; a custom container's sit in a list a merge patch cannot reach: the exact edit is given
 * by hand instead. Risk: medium (a new pod rolls out; prompts longer than the new length are refused).
 * RBAC: get/patch inferenceservices.
 */
import { paramText } from '../param-text.js';
import { z } from 'zod';
import { diffLines, mergePatchAt, valueAt } from '../../changes/field-changes.js';
import { withMaxModelLen } from '../../changes/max-model-len.js';
import { argsOf, pathThroughList, patchableArgs } from '../../changes/runtime-args.js';
import type { Remediation } from '../../findings/types.js';
import { componentsOf, refOf } from '../../kube/inference-service-view.js';
import { locateInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import type { ActionOffer, OfferContext, OfferingAction } from '../types.js';

const params = z.object({
  component: z.string().min(1).default('predictor'),
  /** Path of the args list inside the InferenceService, e.g. ["spec","predictor","model","args"]. */
  path: z.array(z.string().min(1)).min(3).max(12),
  tokens: z.number().int().min(256),
  from: z.string().nullish(),
});
type Params = z.infer<typeof params>;

function offer(ctx: OfferContext, input: { component: string | undefined; tokens: number }): Remediation | null {
  const components = componentsOf(ctx.target.isvc);
  const component = components.find((c) => c.name === (input.component ?? 'predictor') && !c.canary) ?? components[0];
  if (!component || input.tokens < 256) return null;
  const path = [...component.modelPath, 'args'];
  const target = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const change = withMaxModelLen(argsOf(valueAt(ctx.target.isvc, path)), input.tokens);
  if (pathThroughList(path))
    return {
      action: 'manual',
      summary: `Set --max-model-len=${input.tokens} in ${path.join('.')} by hand (a container list, which a merge patch cannot reach)`,
      target,
      needsApproval: false,
      manual: `kubectl -n ${ctx.target.namespace} edit inferenceservice ${ctx.target.name}   # ${path.join('.')}: --max-model-len=${input.tokens}`,
    };
  const offered: ActionOffer<Params> = {
    action: 'lower-max-model-len',
    summary: `Set --max-model-len=${input.tokens}${change.from ? ` (from ${change.from})` : ''}: the KV cache holds ${input.tokens} tokens`,
    target,
    diff: diffLines([{ path: path.join('.'), before: argsOf(valueAt(ctx.target.isvc, path)), after: change.args }]),
    needsApproval: true,
    params: { component: component.name, path, tokens: input.tokens, from: change.from ?? null },
  };
  return offered;
}

export const lowerMaxModelLen: OfferingAction<Params, { component: string | undefined; tokens: number }> = {
  ...patchAction<Params>({
    id: 'lower-max-model-len',
    title: 'Set --max-model-len to what the KV cache holds',
    label: (_plan, q) => (paramText(q.tokens) ? `Set --max-model-len=${paramText(q.tokens)}` : 'Set --max-model-len'),
    params,
    locate: locateInferenceService,
    build(live, p) {
      const liveArgs = patchableArgs(live, p.path);
      const change = withMaxModelLen(liveArgs, p.tokens);
      return {
        patch: mergePatchAt(p.path, change.args),
        summary: `Set --max-model-len=${p.tokens} on the ${p.component}${change.from ? ` (from ${change.from})` : ''}`,
        risk: 'medium',
        riskNote: `A new pod rolls out; prompts and completions longer than ${p.tokens} tokens are refused.`,
      };
    },
  }),
  offer,
};
