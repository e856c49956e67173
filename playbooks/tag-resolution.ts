/**
 * Inference Service cannot fetch docker images from AWS ECR (debug guide).
 *
 * Knative resolves image tags to digests in its controller; a private registry (AWS ECR) answers
 * it with 401 even when the nodes can pull: "failed to resolve image to digest: ... unsupported
 * status code 401". The fix is to skip tag resolution for that registry in
 * knative-serving/config-deployment (registriesSkippingTagResolving), or give the controller
 * credentials for it. A registry the controller cannot reach over HTTPS (an HTTP-only registry the
 * nodes pull from as insecure) is the same fix. A tag that does not exist (MANIFEST_UNKNOWN) is not:
 * when the image is one the controller configures, the inferenceservice-config key that set the tag
 * is what to change, else the service's runtimeVersion / image.
 *
 * RBAC: list services/revisions.serving.knative.dev, get configmaps in knative-serving and (for a
 * missing tag) inferenceservice-config in the controller's namespace.
 * Emits: IMAGE_DIGEST_RESOLUTION_FAILED.
 */
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { knativeServicesOf, revisionsOf } from '../src/diagnosis/related-objects.js';
import { missingTag, registryOf, TAG_MISSING, UNAUTHORIZED, UNREACHABLE } from '../src/diagnosis/image-origin.js';

export { registryOf };
import { finding } from '../src/findings/finding.js';
import type { Evidence, Remediation } from '../src/findings/types.js';
import { ForbiddenError } from '../src/kube/errors.js';
import { formatCondition, refOf } from '../src/kube/inference-service-view.js';
import { componentOf } from '../src/kube/pod-labels.js';
import type { KubeObject } from '../src/kube/schemas.js';
import { offerFix } from '../src/remediation/actions/index.js';

const DIGEST_FAILURE = /failed to resolve image to digest|Unable to fetch image/i;

export const tagResolution: Playbook = {
  id: 'tag-resolution',
  title: 'Knative cannot resolve the image tag to a digest',
  emits: ['IMAGE_DIGEST_RESOLUTION_FAILED'],
  async run(ctx) {
    const [services, revisions] = await Promise.all([knativeServicesOf(ctx), revisionsOf(ctx)]);
    const objects: Array<[string, KubeObject]> = [
      ['InferenceService', ctx.target.isvc],
      ...services.map((s) => ['Knative Service', s] as [string, KubeObject]),
      ...revisions.map((r) => ['Revision', r] as [string, KubeObject]),
    ];
    const hits = objects.flatMap(([kind, o]) =>
      (o.status?.conditions ?? []).filter((c) => DIGEST_FAILURE.test(c.message ?? '')).map((c) => ({ kind, o, c })),
    );
    const best = hits.find((h) => h.kind === 'Revision') ?? hits[0];
    if (!best) return [];
    const message = best.c.message ?? '';
    const image = /image "([^"]+)"/.exec(message)?.[1] ?? imageOf(best.o);
    const registry = image ? registryOf(image) : undefined;
    const subject = refOf(best.kind, ctx.target.namespace, best.o.metadata.name);
    const component =
      componentOf(best.o.metadata.labels) ??
      componentOf(
        services.find((s) => s.metadata.name === best.o.metadata.labels?.['serving.knative.dev/service'])?.metadata
          .labels,
      );
    const conditions = hits.slice(0, 3).map((h) => ({
      kind: 'condition' as const,
      ref: refOf(h.kind, ctx.target.namespace, h.o.metadata.name),
      text: formatCondition(h.c),
    }));
    const imageField: Evidence = {
      kind: 'field',
      ref: subject,
      text: `image: ${image ?? 'unknown'}; registry: ${registry ?? 'unknown'}`,
    };
    const revision = best.kind === 'Revision' ? best.o.metadata.name : undefined;
    // a tag that does not exist: skipping tag resolution would not help, the tag itself is wrong
    if (image && TAG_MISSING.test(message)) {
      const missing = await missingTag(ctx, image, component);
      return [
        finding('IMAGE_DIGEST_RESOLUTION_FAILED', {
          subject,
          title: missing.title,
          evidence: [...conditions, imageField, ...missing.evidence],
          next: missing.next,
          component,
          revision,
        }),
      ];
    }
    const { evidence: configEvidence, remediation, current } = await configDeployment(ctx, registry);
    const why = UNREACHABLE.test(message)
      ? `Knative's controller cannot reach ${registry ?? 'the registry'} over HTTPS to resolve the tag (the nodes may pull it another way, e.g. as an insecure registry)`
      : UNAUTHORIZED.test(message)
        ? `${registry ?? 'the registry'} refuses Knative's controller (it has no pull credentials for it)`
        : undefined;
    return [
      finding('IMAGE_DIGEST_RESOLUTION_FAILED', {
        subject,
        title: `Knative cannot resolve ${image ?? 'the image'} to a digest${/\b401\b/.test(message) ? ' (401 from the private registry)' : why ? `: ${why}` : ''}`,
        evidence: [...conditions, imageField, ...configEvidence],
        remediation,
        next: `kubectl edit configmap config-deployment -n ${ctx.config.knativeNamespace}: add ${registry ?? "the image's registry"} to data.registriesSkippingTagResolving (now: ${current || 'not set'})${UNAUTHORIZED.test(message) ? ', or give the Knative controller pull credentials for it' : ''}; the nodes then pull ${image ?? 'the image'} by its tag`,
        component,
        revision,
      }),
    ];
  },
};

function imageOf(o: KubeObject): string | undefined {
  const text = JSON.stringify(o.spec ?? {});
  return /"image":"([^"]+)"/.exec(text)?.[1];
}

async function configDeployment(
  ctx: DiagnosisContext,
  registry: string | undefined,
): Promise<{ evidence: Evidence[]; remediation: Remediation | null; current?: string }> {
  const ns = ctx.config.knativeNamespace;
  const ref = refOf('ConfigMap', ns, 'config-deployment');
  let cm: V1ConfigMap | null;
  try {
    cm = await ctx.reader.configMap(ns, 'config-deployment');
  } catch (error) {
    if (error instanceof ForbiddenError)
      return { evidence: [{ kind: 'note', ref, text: `cannot read ${ref}: ${error.message}` }], remediation: null };
    throw error;
  }
  const current = cm?.data?.registriesSkippingTagResolving ?? '';
  const evidence: Evidence[] = [
    { kind: 'field', ref, text: `registriesSkippingTagResolving: ${current || '(not set)'}` },
  ];
  return { evidence, remediation: await offerFix('skip-tag-resolution', ctx, { registry, current }), current };
}
