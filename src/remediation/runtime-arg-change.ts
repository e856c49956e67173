/**
 * What the actions that set one flag in a model's args share (lower-max-model-len,
 * lower-gpu-memory-utilization, lower-max-num-seqs): the offer finds the component's args
 * (`spec.predictor.model.args`), shows the exact change as a diff, and gives the edit by hand when
 * the args sit in a container list a merge patch cannot reach; the plan patches the live args,
 * refusing a "lower" that the live args already meet. `argFlagAction` builds such an action's
 * plan side from its flag, the param holding the value and its risk note.
 */
import type { ZodType, ZodTypeDef } from 'zod';
import { diffLines, mergePatchAt, valueAt } from '../changes/field-changes.js';
import { RemediationError } from '../changes/remediation-error.js';
import { argsOf, argValue, patchableArgs, pathThroughList, withArg } from '../changes/runtime-args.js';
import type { Remediation } from '../findings/types.js';
import { componentsOf, refOf } from '../kube/inference-service-view.js';
import type { KubeObject } from '../kube/schemas.js';
import { locateInferenceService } from './find-inference-service.js';
import { paramText } from './param-text.js';
import { patchAction } from './patch-action.js';
import type { OfferContext, RemediationAction } from './types.js';

export interface ArgOffer<P> {
  action: string;
  /** The component the finding is about (default the predictor; never a canary). */
  component: string | undefined;
  flag: string;
  value: string;
  /** Why this change, from the evidence (after the change in the summary). */
  why?: string;
  /** `from`: the flag's value in the service's args now, when set. */
  params(at: { component: string; path: string[]; from: string | undefined }): P;
}

export function offerArgChange<P extends Record<string, unknown>>(
  ctx: OfferContext,
  spec: ArgOffer<P>,
): Remediation | null {
  const components = componentsOf(ctx.target.isvc);
  const component = components.find((c) => c.name === (spec.component ?? 'predictor') && !c.canary) ?? components[0];
  if (!component) return null;
  const path = [...component.modelPath, 'args'];
  const target = refOf('InferenceService', ctx.target.namespace, ctx.target.name);
  const setting = `--${spec.flag}=${spec.value}`;
  const why = spec.why ? `: ${spec.why}` : '';
  if (pathThroughList(path))
    return {
      action: 'manual',
      summary: `Set ${setting} in ${path.join('.')} by hand (a container list, which a merge patch cannot reach)${why}`,
      target,
      needsApproval: false,
      manual: `kubectl -n ${ctx.target.namespace} edit inferenceservice ${ctx.target.name}   # ${path.join('.')}: ${setting}`,
    };
  const before = argsOf(valueAt(ctx.target.isvc, path));
  const change = withArg(before, spec.flag, spec.value);
  return {
    action: spec.action,
    summary: `Set ${setting}${change.from ? ` (from ${change.from})` : ''}${why}`,
    target,
    diff: diffLines([{ path: path.join('.'), before, after: change.args }]),
    needsApproval: true,
    params: spec.params({ component: component.name, path, from: change.from }),
  };
}

/**
 * The merge patch that sets the flag in the live args at `path`, and the value it replaces;
 * `lowering`: refuses when the live args already give the value or less.
 */
export function argChangePatch(
  live: KubeObject,
  path: string[],
  flag: string,
  value: number,
  options: { lowering?: boolean } = {},
): { patch: Record<string, unknown>; from: string | undefined } {
  const args = patchableArgs(live, path);
  const set = argValue(args, flag);
  if (options.lowering && set !== undefined && Number(set) <= value)
    throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', `--${flag} is already ${set}`);
  const change = withArg(args, flag, String(value));
  return { patch: mergePatchAt(path, change.args), from: change.from };
}

/** The params every such action carries: the component and the path of its args list. */
interface ArgParams extends Record<string, unknown> {
  component: string;
  path: string[];
}

export interface ArgFlagActionSpec<P extends ArgParams> {
  id: string;
  title: string;
  flag: string;
  params: ZodType<P, ZodTypeDef, unknown>;
  /** The value the plan sets, from the params. */
  value(p: P): number;
  /** Refuse when the live args already give the value or less. */
  lowering?: boolean;
  riskNote(p: P): string;
}

/** A merge-patch action that sets `--flag=value` in a model's args, its Approve button naming the value. */
export function argFlagAction<P extends ArgParams>(spec: ArgFlagActionSpec<P>): RemediationAction<P> {
  return patchAction<P>({
    id: spec.id,
    title: spec.title,
    label: (_plan, p) => {
      const value = paramText(spec.value(p as P));
      return value ? `Set --${spec.flag}=${value}` : `${spec.lowering ? 'Lower' : 'Set'} --${spec.flag}`;
    },
    params: spec.params,
    locate: locateInferenceService,
    build(live, p) {
      const value = spec.value(p);
      const change = argChangePatch(live, p.path, spec.flag, value, { lowering: spec.lowering ?? false });
      return {
        patch: change.patch,
        summary: `Set --${spec.flag}=${value} on the ${p.component}${change.from ? ` (from ${change.from})` : ''}`,
        risk: 'medium',
        riskNote: spec.riskNote(p),
      };
    },
  });
}
