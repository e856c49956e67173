/**
 * set-llm-group-weight (LLM_GROUP_ROUTES_UNREADY_MEMBER): sets `spec.router.route.weight` of one
 * member of an LLMInferenceService routing group (KServe 0.20), 0 by default: the controller then
 * gives the member no share of the group's traffic on every member's HTTPRoute, and the members
 * that are Ready take it (KServe's own canary lifecycle moves traffic the same way). Offered only
 * while another member takes the share (Ready, or routed to by the controller, with a weight above
 * 0); verified on that member (it must be Ready with nothing wrong).
 * The member keeps its spec, pods and group: set the weight back once it is fixed. Risk: medium
 * (the members that stay take the member's share of the load).
 * RBAC: get/patch llminferenceservices.
 */
import { z } from 'zod';
import { RemediationError } from '../../changes/remediation-error.js';
import type { Remediation } from '../../findings/types.js';
import type { ObjectRef } from '../../kube/cluster-writer.js';
import { refOf } from '../../kube/inference-service-view.js';
import { groupMemberOf, routingGroupOf } from '../../kube/llm-routing-group.js';
import { findLlmInferenceService } from '../find-inference-service.js';
import type { KubeObject } from '../../kube/schemas.js';
import { patchAction } from '../patch-action.js';
import type { ActionContext, ActionOffer, OfferContext, OfferingAction } from '../types.js';

const params = z.object({
  /** The member whose weight changes. */
  member: z.string().min(1),
  group: z.string().min(1),
  /** Its weight when offered. */
  from: z.number().int().min(0),
  to: z.number().int().min(0).max(1_000_000).default(0),
  /** The Ready member that takes its share (verified after the change). */
  keeps: z.string().min(1),
});
type Params = z.infer<typeof params>;

interface OfferInput {
  member: string;
  group: string;
  from: number;
  keeps: string;
}

function offer(ctx: OfferContext, input: OfferInput): Remediation {
  const offered: ActionOffer<Params> = {
    action: 'set-llm-group-weight',
    summary: `Take ${input.member} out of routing group ${input.group}'s traffic (weight ${input.from} → 0): ${input.keeps} takes its share`,
    target: refOf('LLMInferenceService', ctx.target.namespace, input.member),
    diff: ['  spec.router.route.weight:', `-   ${input.from}`, '+   0'],
    needsApproval: true,
    params: { ...input, to: 0 },
  };
  return offered;
}

async function locateMember(
  ctx: ActionContext,
  p: Params,
): Promise<{ target: ObjectRef; isvc: ObjectRef; live: KubeObject }> {
  const found = await findLlmInferenceService(ctx.writer, ctx.target.namespace, p.member);
  if (found) return { target: found.ref, isvc: found.ref, live: found.object };
  throw new RemediationError(
    'REMEDIATION_TARGET_NOT_FOUND',
    `LLMInferenceService ${ctx.target.namespace}/${p.member} not found`,
  );
}

const patch = patchAction<Params>({
  id: 'set-llm-group-weight',
  title: "Set a routing group member's weight",
  label: (_plan, p) => (p.to === 0 ? `Take ${p.member} out of the split` : `Set ${p.member}'s weight to ${p.to}`),
  params,
  locate: locateMember,
  build(live, p, ctx) {
    const group = routingGroupOf(live);
    if (group !== p.group)
      throw new RemediationError(
        'REMEDIATION_NOT_APPLICABLE',
        `${p.member} is ${group ? `in routing group ${group}` : 'in no routing group'} now, not ${p.group}`,
      );
    const now = groupMemberOf(live);
    if (now.weight === p.to)
      throw new RemediationError(
        'REMEDIATION_NOTHING_TO_CHANGE',
        `spec.router.route.weight of ${p.member} is already ${p.to}`,
      );
    return {
      patch: { spec: { router: { route: { weight: p.to } } } },
      summary: `Set spec.router.route.weight of ${p.member} from ${now.weight} to ${p.to}${p.to === 0 ? `: ${p.keeps} takes its share of routing group ${p.group}'s traffic` : ''}`,
      risk: 'medium',
      riskNote: `${p.keeps} and the other Ready members of group ${p.group} take ${p.member}'s share of the load; ${p.member} keeps its spec and pods (set the weight back to ${now.weight} once it is Ready).`,
      ...(now.ready ? {} : { targetState: `${p.member}: ${now.readyText}; ${now.workloads}` }),
      verifies: { namespace: ctx.target.namespace, name: p.keeps, kind: 'llmisvc' },
    };
  },
});

export const setLlmGroupWeight: OfferingAction<Params, OfferInput> = { ...patch, offer };
