/**
 * The OCI modelcar itself fails. For an oci:// storageUri KServe's webhook runs the model image as
 * `modelcar-init` (an init container that checks `/models` of the image is there and not empty:
 * "NOK ... Prefetched but modelcar is invalid (/models does not exist or is empty)", exit 1) and as
 * the `modelcar` sidecar (`sh -c 'ln -sf /proc/$$/root/models /mnt/models && sleep infinity'`, so the
 * image needs a shell). The pod never gets past Init, or the model server starts without its
 * model, and the InferenceService only says the Deployment is not available. Reads which modelcar
 * container fails, its exit and its own words, and says what the image lacks. Pull failures of the
 * same containers are image-pull's.
 *
 * RBAC: list pods, get pods/log.
 * Emits: MODELCAR_FAILED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { readContainerLog } from '../src/diagnosis/log-evidence.js';
import { MODELCAR_CONTAINER, modelcarSourceOf } from '../src/diagnosis/modelcar-image.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { podsOf } from '../src/diagnosis/related-objects.js';
import { serviceNextStepContext } from '../src/diagnosis/service-next-step-context.js';
import { finding } from '../src/findings/finding.js';
import { editCommand } from '../src/findings/next-step-context.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { refOf } from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';
import { type ContainerFailure, containerFailures } from '../src/kube/pod-status.js';

const PULL_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);
const NO_MODELS = /NOK \.\.\. Prefetched but modelcar is invalid \(\/models does not exist or is empty\)/;
const NO_SHELL =
  /exec: "?sh"?: (?:executable file not found|no such file or directory)|"sh": executable file not found/;

export const modelcar: Playbook = {
  id: 'modelcar',
  title: 'The OCI modelcar fails',
  emits: ['MODELCAR_FAILED'],
  async run(ctx) {
    const out: Finding[] = [];
    for (const pod of await podsOf(ctx)) {
      const failed = containerFailures(pod).find(
        (f) => MODELCAR_CONTAINER.test(f.container) && !PULL_REASONS.has(f.reason),
      );
      if (failed) out.push(await modelcarFinding(ctx, pod, failed));
    }
    return out;
  },
};

async function modelcarFinding(ctx: DiagnosisContext, pod: V1Pod, failed: ContainerFailure): Promise<Finding> {
  const ns = ctx.target.namespace;
  const name = pod.metadata?.name ?? '?';
  const subject = refOf('Pod', ns, name);
  const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find(
    (c) => c.name === failed.container,
  );
  const image = spec?.image ?? '?';
  const uri = modelcarSourceOf(pod, failed.container, image) ?? `oci://${image}`;
  const log = await readContainerLog(ctx, ns, name, failed.container, { preferPrevious: failed.fromPrevious });
  const said = [log.text ?? '', failed.terminationMessage ?? '', failed.message ?? ''].join('\n');
  const component = componentOf(pod.metadata?.labels);
  const storageUri = serviceNextStepContext(ctx.target, ctx.config.knativeNamespace).fieldPath(component, 'storageUri');
  const edit = editCommand(ctx.target);
  const status = `${failed.container}: ${failed.reason}${failed.exitCode !== undefined ? `, exit code ${failed.exitCode}` : ''}, ${failed.restarts} restart(s); image ${image}`;
  const evidence: Evidence[] = [{ kind: 'field', ref: subject, container: failed.container, text: status }];
  if (log.text) evidence.push(log.evidence);
  else if (said.trim()) evidence.push({ kind: 'field', ref: subject, container: failed.container, text: said.trim() });
  const why = NO_MODELS.test(said)
    ? {
        title: `The model image ${image} has nothing under /models: the ${failed.container} check of ${uri} fails`,
        next: `Rebuild ${image} with the model files under /models (COPY the model folder to /models/ in its Containerfile) and push it, or ${edit}: set ${storageUri} to an image that has them`,
      }
    : NO_SHELL.test(said)
      ? {
          title: `The model image ${image} has no shell: the ${failed.container} container of ${uri} cannot run sh`,
          next: `Rebuild ${image} on a base that has sh (FROM busybox, the model under /models): KServe runs sh in it to link /models into /mnt/models; or ${edit}: set ${storageUri} to such an image`,
        }
      : {
          title: `The ${failed.container} container of ${uri} fails (${failed.reason})`,
          next: `kubectl logs ${name} -n ${ns} -c ${failed.container} --previous: the model image ${image} must hold the model under /models and a shell; fix the image or ${edit}: set ${storageUri} to one that works`,
        };
  return finding('MODELCAR_FAILED', {
    subject,
    title: why.title,
    evidence,
    component,
    revision: revisionOfPod(pod),
    next: why.next,
  });
}
