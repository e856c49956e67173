/**
 * Images the kubelet cannot pull: ErrImagePull, ImagePullBackOff, InvalidImageName.
 *
 * RBAC: list pods, list events.
 * Emits: IMAGE_PULL_FAILED.
 */
import type { Playbook } from '../src/diagnosis/playbook.js';
import { eventsOf, podsOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Finding } from '../src/findings/types.js';
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
          .filter((e) => e.involvedObject?.name === name && /Failed|BackOff/.test(e.reason ?? '') && /image/i.test(e.message ?? ''))
          .sort((a, b) => Number(/Failed to pull image/.test(b.message ?? '')) - Number(/Failed to pull image/.test(a.message ?? '')));
        out.push(
          finding('IMAGE_PULL_FAILED', {
            subject,
            title: `Cannot pull image ${s.image} (${reason})`,
            evidence: [
              { kind: 'field', ref: subject, container: s.name, text: `image: ${s.image}; ${reason}${s.state?.waiting?.message ? `: ${s.state.waiting.message}` : ''}` },
              ...events.slice(0, 2).map((e) => ({ kind: 'event' as const, ref: subject, text: `${e.reason}: ${e.message}` })),
            ],
            component: componentOf(pod.metadata?.labels),
            revision: revisionOfPod(pod),
          }),
        );
      }
    }
    return out;
  },
};
