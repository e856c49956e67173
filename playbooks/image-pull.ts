/**
 * Images the kubelet cannot pull: ErrImagePull, ImagePullBackOff, InvalidImageName.
 *
 * The next step follows the kubelet's words: a tag that does not exist points at the
 * inferenceservice-config key or the spec field that set it; a refusal at the service account's
 * imagePullSecrets; an unreachable registry at the nodes' network. The model image of an OCI
 * modelcar (the modelcar / modelcar-init containers of an oci:// storageUri) points at the
 * storageUri and the pod's pull secrets instead (src/diagnosis/modelcar-image.ts).
 *
 * RBAC: list pods, list events (get configmaps/inferenceservice-config for a missing tag).
 * Emits: IMAGE_PULL_FAILED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { missingTag, registryOf, TAG_MISSING, UNAUTHORIZED, UNREACHABLE } from '../src/diagnosis/image-origin.js';
import { modelcarPullAdvice, modelcarSourceOf } from '../src/diagnosis/modelcar-image.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf, podsOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { refOf } from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';

const PULL_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);

export const imagePull: Playbook = {
  id: 'image-pull',
  title: 'Container images cannot be pulled',
  emits: ['IMAGE_PULL_FAILED'],
  async run(ctx) {
    const pods = await podsOf(ctx);
    const out: Finding[] = [];
    const seen = new Set<string>();
    for (const pod of pods) {
      const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
      for (const s of statuses) {
        const reason = s.state?.waiting?.reason;
        if (!reason || !PULL_REASONS.has(reason) || seen.has(s.image)) continue;
        seen.add(s.image);
        const name = pod.metadata?.name ?? '?';
        const subject = refOf('Pod', ctx.target.namespace, name);
        // the kubelet's "Failed to pull image ...: not found" says why; "Back-off pulling image" only repeats it
        const events = (await eventsOf(ctx))
          .filter(
            (e) =>
              e.involvedObject?.name === name &&
              /Failed|BackOff/.test(e.reason ?? '') &&
              /image/i.test(e.message ?? ''),
          )
          .sort(
            (a, b) =>
              Number(/Failed to pull image/.test(b.message ?? '')) -
              Number(/Failed to pull image/.test(a.message ?? '')),
          );
        const component = componentOf(pod.metadata?.labels);
        const said = [s.state?.waiting?.message ?? '', ...events.map((e) => e.message ?? '')].join('\n');
        const uri = modelcarSourceOf(pod, s.name, s.image);
        const why = uri
          ? modelcarPullAdvice(
              ctx,
              pod,
              { container: s.name, image: s.image, uri, component },
              { tagMissing: TAG_MISSING.test(said), unauthorized: UNAUTHORIZED.test(said) },
            )
          : await pullAdvice(ctx, pod, s.image, said, component);
        out.push(
          finding('IMAGE_PULL_FAILED', {
            subject,
            title: why.title ?? `Cannot pull image ${s.image} (${reason})`,
            evidence: [
              {
                kind: 'field',
                ref: subject,
                container: s.name,
                text: `image: ${s.image}; ${reason}${s.state?.waiting?.message ? `: ${s.state.waiting.message}` : ''}`,
              },
              ...events
                .slice(0, 2)
                .map((e) => ({ kind: 'event' as const, ref: subject, text: `${e.reason}: ${e.message}` })),
              ...why.evidence,
            ],
            ...(why.next ? { next: why.next } : {}),
            component,
            revision: revisionOfPod(pod),
          }),
        );
      }
    }
    return out;
  },
};

/**
 * What the kubelet's words say to do: a tag that does not exist (the inferenceservice-config key or
 * the spec field that set it), a registry that refuses the node (imagePullSecrets of the pod's
 * service account), a registry the node cannot reach.
 */
async function pullAdvice(
  ctx: DiagnosisContext,
  pod: V1Pod,
  image: string,
  said: string,
  component: string | undefined,
): Promise<{ title?: string; evidence: Evidence[]; next?: string }> {
  if (TAG_MISSING.test(said)) return missingTag(ctx, image, component);
  const account = pod.spec?.serviceAccountName ?? 'default';
  const registry = registryOf(image);
  if (UNAUTHORIZED.test(said)) {
    const secrets = (pod.spec?.imagePullSecrets ?? []).map((x) => x.name).filter(Boolean);
    return {
      evidence: [
        {
          kind: 'field',
          ref: refOf('Pod', ctx.target.namespace, pod.metadata?.name ?? '?'),
          text: `serviceAccountName: ${account}; imagePullSecrets: ${secrets.join(', ') || 'none'}`,
        },
      ],
      next: `${registry} refuses the node's pull: kubectl create secret docker-registry <name> -n ${ctx.target.namespace} --docker-server=${registry} … and kubectl patch serviceaccount ${account} -n ${ctx.target.namespace} -p '{"imagePullSecrets":[{"name":"<name>"}]}' (the pod uses service account ${account}), then delete the pod`,
    };
  }
  if (UNREACHABLE.test(said)) {
    return {
      evidence: [],
      next: `The node cannot reach ${registry}: check the nodes' network, proxy or registry mirror settings for ${registry} (or push ${image} to a registry the nodes reach and set it in the spec)`,
    };
  }
  return { evidence: [] };
}
