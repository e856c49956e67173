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
 * An `oci://` entry of `storageUris` (KServe 0.16+) whose image no container of the pod runs: KServe
 * 0.16-0.18 make no modelcar for it (the controller's CommonStorageInitialization returns early when
 * `storageUris[0]` is oci://: no storage-initializer, no modelcar, no volume), and 0.19 makes one
 * modelcar, for the first oci:// entry only (several: 0.20; test/scenarios/storage-uris-oci-entry-no-modelcar-kserve-0-16). The model server then finds nothing at the entry's mountPath. Said as STORAGE_URI_UNSUPPORTED
 * for that release, naming the entry (field path, uri, mountPath) and what the pod lacks.
 *
 * RBAC: list pods, get pods/log.
 * Emits: MODELCAR_FAILED, STORAGE_URI_UNSUPPORTED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { readContainerLog } from '../src/diagnosis/log-evidence.js';
import { MODELCAR_CONTAINER, modelcarSourceOf } from '../src/diagnosis/modelcar-image.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { podsOf } from '../src/diagnosis/related-objects.js';
import { type StorageEntry, storageEntriesOf, storageEntryEvidence } from '../src/diagnosis/storage-uris.js';
import { versionFactsOf } from '../src/diagnosis/version-facts-of.js';
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
  emits: ['MODELCAR_FAILED', 'STORAGE_URI_UNSUPPORTED'],
  async run(ctx) {
    const out: Finding[] = [];
    const pods = await podsOf(ctx);
    out.push(...ociEntriesWithoutModelcar(ctx, pods));
    for (const pod of pods) {
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

const OCI_ENTRY = /^oci(?:\+modelcar)?:\/\/(.+)$/;
const bare = (image: string) => image.replace(/^(?:docker\.io|index\.docker\.io)\/(?:library\/)?/, '');

/** [major, minor] of a KServe release string ("0.16.0", "v0.19.1"); undefined for a range or nothing. */
function minorOf(release: string | undefined): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(release ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** oci:// entries of storageUris whose image no container of a component's pod runs. */
function ociEntriesWithoutModelcar(ctx: DiagnosisContext, pods: V1Pod[]): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    const component = componentOf(pod.metadata?.labels) ?? 'predictor';
    if (seen.has(component)) continue;
    const entries = storageEntriesOf(ctx.target.isvc, component);
    const oci = entries.filter((e) => OCI_ENTRY.test(e.uri));
    if (oci.length === 0) continue;
    const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
    const images = new Set(containers.map((c) => bare(c.image ?? '')));
    const missing = oci.filter((e) => !images.has(bare(OCI_ENTRY.exec(e.uri)?.[1] ?? '')));
    if (missing.length === 0) continue;
    seen.add(component);
    const statusImages = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].map(
      (c) => c.image,
    );
    const release = versionFactsOf(ctx, [pod], { images: statusImages }).kserve;
    const minor = minorOf(release);
    const first = missing[0] as StorageEntry;
    const modelcars = containers.filter((c) => MODELCAR_CONTAINER.test(c.name)).map((c) => `${c.name} (${c.image})`);
    const before019 = minor !== undefined && minor[0] === 0 && minor[1] < 19;
    const only019 = minor !== undefined && minor[0] === 0 && minor[1] === 19;
    // 0.19 runs a modelcar for the first oci:// entry only; an unknown release may be either
    if (!before019 && !only019 && minor !== undefined) continue;
    const ns = ctx.target.namespace;
    const name = pod.metadata?.name ?? '?';
    const subject = refOf('Pod', ns, name);
    const isvcRef = refOf('InferenceService', ns, ctx.target.name);
    const serverLine = lastLineOfModelServer(pod);
    const releaseSaid = release ? `KServe ${release.replace(/^v/, '')}` : 'this KServe release';
    const edit = editCommand(ctx.target);
    const others = entries.filter((e) => !OCI_ENTRY.test(e.uri));
    const why = only019
      ? `${releaseSaid} makes a modelcar for the first oci:// entry of storageUris only (several: KServe 0.20, kserve/kserve#5470)`
      : before019
        ? `${releaseSaid} makes no modelcar for an oci:// entry of storageUris (the controller skips every loader when storageUris[0] is oci://; kserve/kserve#5200, fixed in 0.19 by #5261)`
        : 'KServe before 0.19 makes no modelcar for an oci:// entry of storageUris (kserve/kserve#5200), 0.19 for the first only';
    const moveTo =
      oci.length === 1 && others.length === 0
        ? `replace ${first.path.replace(/\[\d+\]$/, '')} (its only entry, ${first.path}: uri ${first.uri}, mountPath ${first.mountPath}) with storageUri: ${first.uri} in the model block (${componentModelPath(first)}): a single oci:// storageUri runs as a modelcar on this release${first.mountPath === '/mnt/models' ? '' : ` and mounts at /mnt/models, not ${first.mountPath}: point the runtime there`}; or upgrade KServe to 0.19+ (0.20+ for several oci:// entries)`
        : `upgrade KServe to ${oci.length > 1 ? '0.20+ (several oci:// entries, kserve/kserve#5470)' : '0.19+ (kserve/kserve#5261)'}, or keep one oci:// source as storageUri: ${first.uri} in the model block (${componentModelPath(first)}) and copy the others (${[...others, ...oci.filter((e) => e !== first)].map((e) => `${e.path} ${e.uri}`).join(', ') || 'none'}) into that image`;
    out.push(
      finding('STORAGE_URI_UNSUPPORTED', {
        subject,
        title: `Nothing loads ${first.path} (${first.uri} at ${first.mountPath}): ${why}`,
        evidence: [
          storageEntryEvidence(isvcRef, first),
          {
            kind: 'field',
            ref: subject,
            text: `containers: ${(pod.spec?.containers ?? []).map((c) => c.name).join(', ')}; initContainers: ${(pod.spec?.initContainers ?? []).map((c) => c.name).join(', ') || 'none'}; modelcar: ${modelcars.join(', ') || `none runs ${OCI_ENTRY.exec(first.uri)?.[1] ?? first.uri}`}`,
          },
          ...(release
            ? [{ kind: 'field' as const, ref: subject, text: `KServe release (from the images): ${release}` }]
            : []),
          ...(serverLine ? [serverLine] : []),
        ],
        component,
        revision: revisionOfPod(pod),
        next: `${edit}: ${moveTo}; then kubectl delete pod ${name} -n ${ns}`,
      }),
    );
  }
  return out;
}

/** spec.predictor.model for spec.predictor.storageUris[0]. */
function componentModelPath(entry: StorageEntry): string {
  return `${entry.path.replace(/\.storageUris\[\d+\]$/, '')}.model`;
}

/** The model server's last words (its termination message): what it found at the mount path. */
function lastLineOfModelServer(pod: V1Pod): Evidence | undefined {
  const status = pod.status?.containerStatuses?.find(
    (c) => c.name === 'kserve-container' || c.name === 'worker-container',
  );
  const message = status?.lastState?.terminated?.message ?? status?.state?.terminated?.message;
  const line = message?.trim().split('\n').at(-1);
  return line
    ? {
        kind: 'field',
        ref: refOf('Pod', pod.metadata?.namespace ?? '?', pod.metadata?.name ?? '?'),
        container: status?.name,
        text: `${status?.name} termination message: ${line}`,
      }
    : undefined;
}
