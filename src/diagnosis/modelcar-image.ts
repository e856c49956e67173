/**
 * The model image of an OCI modelcar. For an `oci://` storageUri, KServe's pod webhook adds a
 * `modelcar` sidecar and a `modelcar-init` init container (`modelcar-N` / `modelcar-init-N` for
 * further URIs) that run the image the URI names, so the model server reads /models of that image
 * through the shared process namespace. When such an image cannot be pulled, the image to fix is
 * the storageUri, not a container image of the spec, and the credentials are the pod's
 * imagePullSecrets (the predictor's `imagePullSecrets` or its service account's).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { editCommand } from '../findings/next-step-context.js';
import type { Evidence } from '../findings/types.js';
import { refOf } from '../kube/inference-service-view.js';
import { registryOf, splitImage } from './image-origin.js';
import type { DiagnosisContext } from './playbook.js';
import { serviceNextStepContext } from './service-next-step-context.js';
import { storageEntryField } from '../findings/storage-entry.js';
import { storageEntriesOf } from './storage-uris.js';

/** The containers KServe's webhook adds for an oci:// storageUri: modelcar, modelcar-init, and -N for further URIs. */
export const MODELCAR_CONTAINER = /^modelcar(?:-init)?(?:-\d+)?$/;
const SOURCE_URI = /^internal\.serving\.(?:kserve\.io|kubeflow\.org)\/storage-initializer-sourceuri$/;
/** oci://, oci+modelcar:// (the explicit form of 0.19+): the URI's image is what the modelcar runs. */
const OCI_URI = /^oci(?:\+modelcar)?:\/\/(.+)$/;

/**
 * The oci:// URI a container pulls its model image for: a modelcar container (by name), or any
 * container whose image is the one the pod's storageUri names. Undefined for other containers.
 */
export function modelcarSourceOf(pod: V1Pod, container: string, image: string): string | undefined {
  const uri = Object.entries(pod.metadata?.annotations ?? {}).find(([k]) => SOURCE_URI.test(k))?.[1];
  const named = uri?.match(OCI_URI)?.[1];
  if (named !== undefined && sameImage(named, image)) return uri;
  return MODELCAR_CONTAINER.test(container) ? `oci://${image}` : undefined;
}

/** The status reports docker.io images with their registry ("docker.io/kserve/x:1" for "kserve/x:1"). */
function sameImage(a: string, b: string): boolean {
  const bare = (s: string) => s.replace(/^(?:docker\.io|index\.docker\.io)\/(?:library\/)?/, '');
  return bare(a) === bare(b);
}

/**
 * What the kubelet's words say to do about a model image: a tag the registry does not have (the
 * storageUri to edit, or the image to push), a registry that refuses the node (the pull secret and
 * where the pod takes it from), anything else (the image and its registry, by name).
 */
export function modelcarPullAdvice(
  ctx: DiagnosisContext,
  pod: V1Pod,
  source: { container: string; image: string; uri: string; component: string | undefined },
  kinds: { tagMissing: boolean; unauthorized: boolean },
): { title: string; evidence: Evidence[]; next: string } {
  const { container, image, uri, component } = source;
  const ns = ctx.target.namespace;
  const registry = registryOf(image);
  const { repo, tag } = splitImage(image);
  const fields = serviceNextStepContext(ctx.target, ctx.config.knativeNamespace);
  // a component listing several sources (storageUris): the entry whose oci:// image this is
  const entry = storageEntriesOf(ctx.target.isvc, component).find(
    (e) => OCI_URI.exec(e.uri)?.[1] !== undefined && sameImage(OCI_URI.exec(e.uri)?.[1] ?? '', image),
  );
  const storageUri = entry ? storageEntryField(entry) : fields.fieldPath(component, 'storageUri');
  // imagePullSecrets sits next to serviceAccountName, on the component (its pod spec)
  const pullSecrets = fields
    .fieldPath(component, 'serviceAccountName')
    .replace(/serviceAccountName$/, 'imagePullSecrets');
  const edit = editCommand(ctx.target);
  const what = `the model image ${image} (storageUri ${uri}, run by the ${container} container KServe adds for it)`;
  if (kinds.tagMissing)
    return {
      title: `Cannot pull ${what}: ${repo} has no tag ${tag}`,
      evidence: [],
      next: `${edit}: set ${storageUri} to oci://${repo} with a tag the registry has (skopeo list-tags docker://${repo} lists them), or push the model image as ${image}`,
    };
  if (kinds.unauthorized) {
    const account = pod.spec?.serviceAccountName ?? 'default';
    const secrets = (pod.spec?.imagePullSecrets ?? []).map((x) => x.name).filter(Boolean);
    const secret = `${registry.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}-pull`;
    return {
      title: `${registry} refuses to let the node pull ${what}`,
      evidence: [
        {
          kind: 'field',
          ref: refOf('Pod', ns, pod.metadata?.name ?? '?'),
          text: `serviceAccountName: ${account}; imagePullSecrets: ${secrets.join(', ') || 'none'}`,
        },
      ],
      next: `kubectl create secret docker-registry ${secret} -n ${ns} --docker-server=${registry} with the login of an account that may pull ${repo}, then ${edit}: add name: ${secret} to ${pullSecrets} (or kubectl patch serviceaccount ${account} -n ${ns} -p '{"imagePullSecrets":[{"name":"${secret}"}]}')${secrets.length ? `; the pod's ${secrets.join(', ')} does not hold credentials ${registry} accepts` : ''}`,
    };
  }
  return {
    title: `Cannot pull ${what}`,
    evidence: [],
    next: `Check that the nodes can pull ${image} from ${registry} (crictl pull ${image} on the node), then kubectl delete pod ${pod.metadata?.name ?? '?'} -n ${ns}; ${edit}: ${storageUri} names the image`,
  };
}
