/**
 * A model served from KServe's local model cache that is not on the node the pod runs on. When a
 * LocalModelCache matches the storageUri, KServe's defaulter labels the InferenceService `internal.serving.kserve.io/localmodel:
 * <cache>` and the pod webhook mounts the node group's PVC (`localmodel-pvc-name`) at /mnt/models
 * instead of injecting a storage-initializer. The node agent downloads the model onto each node of
 * the group with a Job and writes the result into the LocalModelNode (`status.modelStatus`) and the
 * cache (`status.nodeStatus`, `status.copies`). A pod on a node whose download failed or has not
 * finished starts on an empty directory: the model server finds no model, and no log of the pod says
 * why. Reads the cache's per-node state for the nodes the service's pods run on, and that node's
 * LocalModelNode when the download failed.
 *
 * (A LocalModelNamespaceCache, 0.18+, labels the service `localmodel-namespace` as well: not read yet.)
 *
 * RBAC: list pods, get localmodelcaches and localmodelnodes (cluster-scoped).
 * Emits: LOCAL_MODEL_NOT_CACHED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { podsOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { refOf } from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';
import { LOCAL_MODEL_CACHES, LOCAL_MODEL_NODES } from '../src/kube/resources.js';

const LOCAL_MODEL = 'internal.serving.kserve.io/localmodel';
const LOCAL_MODEL_NAMESPACE = 'internal.serving.kserve.io/localmodel-namespace';
const PVC_NAME = 'internal.serving.kserve.io/localmodel-pvc-name';
const DOWNLOADED = 'NodeDownloaded';
/** Where the node agent runs its download Jobs unless inferenceservice-config's localModel.jobNamespace says otherwise. */
const DEFAULT_JOB_NAMESPACE = 'kserve-localmodel-jobs';

interface CacheObject {
  metadata: { name: string };
  spec?: { sourceModelUri?: string; nodeGroups?: string[]; modelSize?: string };
  status?: {
    nodeStatus?: Record<string, string>;
    copies?: { available?: number; total?: number; failed?: number };
  };
}

export const localModelCache: Playbook = {
  id: 'local-model-cache',
  title: 'The cached model is not on the node',
  emits: ['LOCAL_MODEL_NOT_CACHED'],
  async run(ctx) {
    const labels = ctx.target.isvc.metadata.labels ?? {};
    const cacheName = labels[LOCAL_MODEL];
    // a LocalModelNamespaceCache (label localmodel-namespace, 0.18+) is not read yet
    if (!cacheName || labels[LOCAL_MODEL_NAMESPACE]) return [];
    const [cache, pods] = await Promise.all([
      ctx.reader.getVersioned<CacheObject>(LOCAL_MODEL_CACHES, '', cacheName),
      podsOf(ctx),
    ]);
    if (!cache) return [];
    const out: Finding[] = [];
    for (const pod of pods) {
      const node = pod.spec?.nodeName;
      const state = node ? (cache.status?.nodeStatus?.[node] ?? 'absent from status.nodeStatus') : undefined;
      if (!node || state === DOWNLOADED) continue;
      out.push(await notCachedFinding(ctx, pod, node, state ?? '', cache));
    }
    return out;
  },
};

async function notCachedFinding(
  ctx: DiagnosisContext,
  pod: V1Pod,
  node: string,
  state: string,
  cache: CacheObject,
): Promise<Finding> {
  const ns = ctx.target.namespace;
  const podName = pod.metadata?.name ?? '?';
  const kind = 'LocalModelCache';
  const cacheRef = refOf(kind, undefined, cache.metadata.name);
  // the LocalModelNode's status key of a cluster-scoped cache is the cache's name
  const statusKey = cache.metadata.name;
  const downloaded = Object.entries(cache.status?.nodeStatus ?? {})
    .filter(([, s]) => s === DOWNLOADED)
    .map(([n]) => n);
  const copies = cache.status?.copies;
  const evidence: Evidence[] = [
    {
      kind: 'field',
      ref: refOf('Pod', ns, podName),
      text: `nodeName: ${node}; ${PVC_NAME}: ${ctx.target.isvc.metadata.annotations?.[PVC_NAME] ?? '(none)'}`,
    },
    {
      kind: 'field',
      ref: cacheRef,
      text: `sourceModelUri: ${cache.spec?.sourceModelUri ?? '?'}; nodeGroups: [${(cache.spec?.nodeGroups ?? []).join(', ')}]; status.nodeStatus.${node}: ${state}${copies ? `; copies: available ${copies.available ?? 0}, failed ${copies.failed ?? 0}, total ${copies.total ?? 0}` : ''}`,
    },
    ...(await nodeModelStatus(ctx, node, statusKey)),
  ];
  const failed = /Error/.test(state);
  const elsewhere = downloaded.length ? ` (it is downloaded on ${downloaded.join(', ')})` : '';
  const jobs = `kubectl get jobs,pods -n ${DEFAULT_JOB_NAMESPACE} -l model=${cache.metadata.name},node=${node} and kubectl logs -n ${DEFAULT_JOB_NAMESPACE} -l model=${cache.metadata.name},node=${node} (the namespace is localModel.jobNamespace in inferenceservice-config)`;
  return finding('LOCAL_MODEL_NOT_CACHED', {
    subject: refOf('Pod', ns, podName),
    title: failed
      ? `The download of ${cache.spec?.sourceModelUri ?? cache.metadata.name} onto node ${node} failed (${kind} ${cache.metadata.name}: ${state}): pod ${podName} runs there on an empty model directory`
      : `${cache.spec?.sourceModelUri ?? cache.metadata.name} is not downloaded onto node ${node} yet (${kind} ${cache.metadata.name}: ${state}): pod ${podName} runs there on an empty model directory`,
    evidence,
    component: componentOf(pod.metadata?.labels),
    revision: revisionOfPod(pod),
    next: failed
      ? `${jobs}: fix what the download Job says (disk space on ${node}, credentials of ${cache.spec?.sourceModelUri ?? 'the source'}), then kubectl delete jobs -n ${DEFAULT_JOB_NAMESPACE} -l model=${cache.metadata.name},node=${node} so the node agent downloads again, and kubectl delete pod ${podName} -n ${ns}${elsewhere}`
      : `${jobs}: wait for the download to finish, then kubectl delete pod ${podName} -n ${ns}${elsewhere}`,
  });
}

/** The LocalModelNode of the node: its own word on this model (ModelDownloadError, ModelDownloading). */
async function nodeModelStatus(ctx: DiagnosisContext, node: string, statusKey: string): Promise<Evidence[]> {
  const localNode = await ctx.reader.getVersioned<{ status?: { modelStatus?: Record<string, string> } }>(
    LOCAL_MODEL_NODES,
    '',
    node,
  );
  const status = localNode?.status?.modelStatus?.[statusKey];
  if (!localNode) return [];
  return [
    {
      kind: 'field',
      ref: refOf('LocalModelNode', undefined, node),
      text: `status.modelStatus.${statusKey}: ${status ?? '(absent: the node agent has not taken the model up)'}`,
    },
  ];
}
