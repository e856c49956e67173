/**
 * skip-tag-resolution (IMAGE_DIGEST_RESOLUTION_FAILED): adds the image's registry to
 * `registriesSkippingTagResolving` in knative-serving/config-deployment, keeping the entries already
 * there (the debug guide's AWS ECR fix). Offered when the registry is not in that list yet. Risk: medium (cluster-wide: every Knative Service using
 * that registry is no longer pinned to a digest, so a moved tag changes what new pods run).
 * RBAC: get/patch configmaps in the Knative namespace (resourceNames: config-deployment).
 */
import { paramText } from '../param-text.js';
import { z } from 'zod';
import { RemediationError } from '../../changes/remediation-error.js';
import type { Remediation } from '../../findings/types.js';
import type { ObjectRef } from '../../kube/cluster-writer.js';
import { refOf } from '../../kube/inference-service-view.js';
import { findInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import type { ActionOffer, OfferContext, OfferingAction } from '../types.js';

const REGISTRY = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d+)?$/i;
const params = z.object({
  registry: z.string().regex(REGISTRY, 'not a registry host'),
  namespace: z.string().min(1).optional(),
  /** Shown in the report (the plan reads the live ConfigMap). */
  from: z.string().optional(),
  to: z.string().optional(),
});
type Params = z.infer<typeof params>;

const entriesOf = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** `current`: registriesSkippingTagResolving as the diagnosis read it; null when the registry is unknown or already listed. */
function offer(ctx: OfferContext, input: { registry: string | undefined; current: string }): Remediation | null {
  const ns = ctx.config.knativeNamespace;
  const entries = entriesOf(input.current);
  if (!input.registry || entries.includes(input.registry)) return null;
  const next = [...entries, input.registry].join(',');
  const offered: ActionOffer<Params> = {
    action: 'skip-tag-resolution',
    summary: `Skip tag-to-digest resolution for ${input.registry} in ${ns}/config-deployment`,
    target: refOf('ConfigMap', ns, 'config-deployment'),
    diff: ['  data.registriesSkippingTagResolving:', `-   ${input.current || '(not set)'}`, `+   ${next}`],
    needsApproval: true,
    params: { namespace: ns, registry: input.registry, from: input.current, to: next },
  };
  return offered;
}

const patch = patchAction<Params>({
  id: 'skip-tag-resolution',
  title: 'Skip tag resolution for a registry',
  label: (_plan, q) =>
    paramText(q.registry) ? `Skip tag resolution for ${paramText(q.registry)}` : 'Skip tag resolution',
  params,
  async locate(ctx, p) {
    const isvc = await findInferenceService(ctx.writer, ctx.target, ctx.seen);
    const target: ObjectRef = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: p.namespace ?? ctx.settings.knativeNamespace,
      name: 'config-deployment',
    };
    const live = await ctx.writer.get(target);
    if (!live)
      throw new RemediationError(
        'REMEDIATION_TARGET_NOT_FOUND',
        `ConfigMap ${target.namespace}/config-deployment not found`,
      );
    return { target, isvc: isvc.ref, live };
  },
  build(live, p) {
    const data = ((live as { data?: Record<string, string> }).data ?? {}) as Record<string, string>;
    const current = data.registriesSkippingTagResolving ?? '';
    const entries = entriesOf(current);
    if (entries.includes(p.registry))
      throw new RemediationError(
        'REMEDIATION_NOTHING_TO_CHANGE',
        `${p.registry} is already in registriesSkippingTagResolving`,
      );
    return {
      patch: { data: { registriesSkippingTagResolving: [...entries, p.registry].join(',') } },
      summary: `Skip tag-to-digest resolution for ${p.registry} in ${live.metadata.namespace}/config-deployment`,
      risk: 'medium',
      riskNote: `Cluster-wide: Knative stops resolving tags from ${p.registry} to digests for every service, so a tag that moves changes what new pods run. The alternative is giving the Knative controller pull credentials for the registry.`,
    };
  },
});

export const skipTagResolution: OfferingAction<Params, { registry: string | undefined; current: string }> = {
  ...patch,
  offer,
};
