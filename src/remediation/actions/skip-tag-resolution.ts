/**
 * skip-tag-resolution (IMAGE_DIGEST_RESOLUTION_FAILED): adds the image's registry to
 * `registriesSkippingTagResolving` in knative-serving/config-deployment, keeping the entries already
 * there (the debug guide's AWS ECR fix). Risk: medium (cluster-wide: every Knative Service using
 * that registry is no longer pinned to a digest, so a moved tag changes what new pods run).
 * RBAC: get/patch configmaps in the Knative namespace (resourceNames: config-deployment).
 */
import { z } from 'zod';
import type { ObjectRef } from '../../kube/cluster-writer.js';
import { findInferenceService } from '../find-inference-service.js';
import { patchAction } from '../patch-action.js';
import { RemediationError } from '../remediation-error.js';

const REGISTRY = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d+)?$/i;
const params = z.object({ registry: z.string().regex(REGISTRY, 'not a registry host'), namespace: z.string().min(1).optional() });

export const skipTagResolution = patchAction<z.infer<typeof params>>({
  id: 'skip-tag-resolution',
  title: 'Skip tag resolution for a registry',
  params,
  async locate(ctx, p) {
    const isvc = await findInferenceService(ctx.writer, ctx.target);
    const target: ObjectRef = { apiVersion: 'v1', kind: 'ConfigMap', namespace: p.namespace ?? ctx.settings.knativeNamespace, name: 'config-deployment' };
    const live = await ctx.writer.get(target);
    if (!live) throw new RemediationError('REMEDIATION_TARGET_NOT_FOUND', `ConfigMap ${target.namespace}/config-deployment not found`);
    return { target, isvc: isvc.ref, live };
  },
  build(live, p) {
    const data = ((live as { data?: Record<string, string> }).data ?? {}) as Record<string, string>;
    const current = data.registriesSkippingTagResolving ?? '';
    const entries = current.split(',').map((s) => s.trim()).filter(Boolean);
    if (entries.includes(p.registry)) throw new RemediationError('REMEDIATION_NOTHING_TO_CHANGE', `${p.registry} is already in registriesSkippingTagResolving`);
    return {
      patch: { data: { registriesSkippingTagResolving: [...entries, p.registry].join(',') } },
      summary: `Skip tag-to-digest resolution for ${p.registry} in ${live.metadata.namespace}/config-deployment`,
      risk: 'medium',
      riskNote: `Cluster-wide: Knative stops resolving tags from ${p.registry} to digests for every service, so a tag that moves changes what new pods run. The alternative is giving the Knative controller pull credentials for the registry.`,
    };
  },
});
