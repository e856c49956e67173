/**
 * A model served from KServe's local model cache that is not on the node the pod runs on. When a
 * LocalModelCache matches the storageUri, KServe's defaulter labels the InferenceService `internal.serving.kserve.io/localmodel:
 * <cache>` and the pod webhook mounts the node group's PVC (`localmodel-pvc-name`) at /mnt/models
 * instead of injecting a storage-initializer. The node agent downloads the model onto each node of
 * the group with a Job and writes the result into the LocalModelNode (`status.modelStatus`) and the
 * cache (`status.nodeStatus`, `status.copies`). A pod on a node whose download failed or has not
 * finished starts on an empty directory: the model server finds no model, and no log of the pod says
 * why; a pod not yet scheduled while no node has the model waits on claims that the same download
 * set-up creates. Reads the cache's per-node state for the nodes the service's pods run on, that
 * node's LocalModelNode, the Jobs' namespace (inferenceservice-config's localModel.jobNamespace) and,
 * while no download has finished, the node group's claim and volume storage classes.
 *
 * A LocalModelNamespaceCache (KServe 0.18+) is the same in the service's namespace: the
 * defaulter prefers it and adds the label `localmodel-namespace`; its node state is keyed
 * `<namespace>/<name>` in the LocalModelNode, its Jobs are labelled modelNamespace too and its download
 * claim is `<name>-<group>-<namespace>-download`. Which kind is read follows the label.
 *
 * RBAC: list pods, get localmodelcaches, localmodelnodes and localmodelnodegroups (cluster-scoped),
 * get localmodelnamespacecaches (the service's namespace), get configmaps/inferenceservice-config.
 * Emits: LOCAL_MODEL_NOT_CACHED.
 */
import type { V1Pod } from '@kubernetes/client-node';
import {
  type CacheRef,
  cacheRefOf,
  claimClassMismatch,
  jobNamespaceOf,
} from '../src/diagnosis/local-model-download.js';
import type { DiagnosisContext, Playbook } from '../src/diagnosis/playbook.js';
import { podsOf } from '../src/diagnosis/related-objects.js';
import { finding } from '../src/findings/finding.js';
import type { Evidence, Finding } from '../src/findings/types.js';
import { refOf } from '../src/kube/inference-service-view.js';
import { componentOf, revisionOfPod } from '../src/kube/pod-labels.js';
import { KINDS } from '../src/kube/resources.js';

const LOCAL_MODEL = 'internal.serving.kserve.io/localmodel';
const LOCAL_MODEL_NAMESPACE = 'internal.serving.kserve.io/localmodel-namespace';
const PVC_NAME = 'internal.serving.kserve.io/localmodel-pvc-name';
const DOWNLOADED = 'NodeDownloaded';

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
    if (!cacheName) return [];
    // a LocalModelNamespaceCache (0.18+) when the defaulter also wrote its namespace
    const ref = cacheRefOf(cacheName, labels[LOCAL_MODEL_NAMESPACE]);
    // every read goes out together once the pods are known (the second wave): the node group from
    // the pod's claim name (`<cache>-<node group>`), the Jobs' namespace, each pod node's LocalModelNode
    const pods = await podsOf(ctx);
    const claim = ctx.target.isvc.metadata.annotations?.[PVC_NAME];
    const group = claim?.startsWith(`${cacheName}-`) ? claim.slice(cacheName.length + 1) : undefined;
    const nodes = [...new Set(pods.map((p) => p.spec?.nodeName).filter((n): n is string => Boolean(n)))];
    const [cache, jobs, mismatch, nodeEvidence] = await Promise.all([
      ref.namespace
        ? ctx.reader.getVersioned<CacheObject>(KINDS.LocalModelNamespaceCache, ref.namespace, cacheName)
        : ctx.reader.getVersioned<CacheObject>(KINDS.LocalModelCache, '', cacheName),
      jobNamespaceOf(ctx),
      group ? claimClassMismatch(ctx, group) : Promise.resolve(undefined),
      Promise.all(nodes.map(async (n) => [n, await nodeModelStatus(ctx, n, ref.statusKey)] as const)),
    ]);
    if (!cache) return [];
    const reads: Reads = { ref, jobs, mismatch, group, nodeEvidence: new Map(nodeEvidence) };
    const states = cache.status?.nodeStatus ?? {};
    const anywhere = Object.values(states).includes(DOWNLOADED);
    const out: Finding[] = [];
    for (const pod of pods) {
      const node = pod.spec?.nodeName;
      if (node && states[node] !== DOWNLOADED)
        out.push(notCachedFinding(ctx, pod, cache, reads, node, states[node] ?? 'absent from status.nodeStatus'));
      // not scheduled yet, and no node of the group has the model
      else if (!node && !anywhere) out.push(notCachedFinding(ctx, pod, cache, reads, undefined, describe(states)));
    }
    return out;
  },
};

interface Reads {
  ref: CacheRef;
  jobs: { namespace: string; configured: boolean };
  mismatch: Awaited<ReturnType<typeof claimClassMismatch>>;
  group: string | undefined;
  nodeEvidence: Map<string, Evidence[]>;
}

const describe = (states: Record<string, string>) =>
  Object.entries(states)
    .map(([n, s]) => `${n}: ${s}`)
    .join(', ') || 'no node yet';

function notCachedFinding(
  ctx: DiagnosisContext,
  pod: V1Pod,
  cache: CacheObject,
  reads: Reads,
  node: string | undefined,
  state: string,
): Finding {
  const ns = ctx.target.namespace;
  const podName = pod.metadata?.name ?? '?';
  const model = cache.metadata.name;
  const source = cache.spec?.sourceModelUri ?? model;
  const groups = cache.spec?.nodeGroups ?? [];
  const downloaded = Object.entries(cache.status?.nodeStatus ?? {})
    .filter(([, s]) => s === DOWNLOADED)
    .map(([n]) => n);
  const failed = /Error/.test(state);
  const { jobs } = reads;
  const mismatch = failed ? undefined : reads.mismatch;
  const nodeStatus = node ? (reads.nodeEvidence.get(node) ?? []) : [];
  const copies = cache.status?.copies;
  const evidence: Evidence[] = [
    // what decides it first: a claim that never binds is why no download starts
    ...(mismatch ? [mismatch.evidence] : []),
    {
      kind: 'field',
      ref: refOf('Pod', ns, podName),
      text: `nodeName: ${node ?? '(not scheduled)'}; ${PVC_NAME}: ${ctx.target.isvc.metadata.annotations?.[PVC_NAME] ?? '(none)'}`,
    },
    {
      kind: 'field',
      ref: refOf(reads.ref.kind, reads.ref.namespace, model),
      text: `sourceModelUri: ${source}; nodeGroups: [${groups.join(', ')}]; ${node ? `status.nodeStatus.${node}: ${state}` : `status.nodeStatus: ${state}`}${copies ? `; copies: available ${copies.available ?? 0}, failed ${copies.failed ?? 0}, total ${copies.total ?? 0}` : ''}`,
    },
    ...nodeStatus,
  ];
  const jobNs = jobs.namespace;
  const selector = reads.ref.jobSelector(node);
  const where = jobs.configured ? '' : ' (the namespace is localModel.jobNamespace in inferenceservice-config)';
  const look = `kubectl get jobs,pods -n ${jobNs} ${selector} and kubectl logs -n ${jobNs} ${selector}${where}`;
  const thenPod = `kubectl delete pod ${podName} -n ${ns}${downloaded.length ? ` (it is downloaded on ${downloaded.join(', ')})` : ''}`;
  const group = reads.group ?? groups[0] ?? '';
  const claim = reads.ref.downloadClaim(group);
  const cacheSaid = `${reads.ref.kind} ${reads.ref.namespace ? `${reads.ref.namespace}/` : ''}${model}`;
  const serving = ctx.target.isvc.metadata.annotations?.[PVC_NAME];
  const onNode = node ? `onto node ${node}` : `onto any node of ${groups.join(', ') || 'its node groups'}`;
  return finding('LOCAL_MODEL_NOT_CACHED', {
    subject: refOf('Pod', ns, podName),
    title: failed
      ? `The download of ${source} ${onNode} failed (${cacheSaid}: ${state}): pod ${podName} runs there on an empty model directory`
      : mismatch
        ? `No download of ${source} starts: node group ${reads.group ?? groups[0] ?? '?'} gives its volumes storage class ${mismatch.pvClass || '(none)'} while its claims ask for ${mismatch.pvcClass || '(none)'} (${cacheSaid}: ${state})`
        : node
          ? `${source} is not downloaded ${onNode} yet (${cacheSaid}: ${state}): pod ${podName} runs there on an empty model directory`
          : `${source} is not downloaded ${onNode} yet (${cacheSaid}: ${state}): pod ${podName} waits unscheduled`,
    evidence,
    component: componentOf(pod.metadata?.labels),
    revision: revisionOfPod(pod),
    next: failed
      ? `${look}: fix what the download Job says (disk space on ${node}, credentials of ${source}), then kubectl delete jobs -n ${jobNs} ${selector} so the node agent downloads again, and ${thenPod}`
      : mismatch
        ? `kubectl edit localmodelnodegroup ${group}: set spec.persistentVolumeSpec.storageClassName to ${mismatch.pvcClass || '""'} (its claims ask for ${mismatch.pvcClass || 'no class'}, its volumes have ${mismatch.pvClass || 'none'}, so claim ${claim} in ${jobNs} never binds and no download starts: kubectl describe pvc ${claim} -n ${jobNs}), then kubectl delete pvc ${claim} -n ${jobNs} and kubectl delete pv ${reads.ref.namespace ? claim : `${claim}-download`}${serving ? `, kubectl delete pvc ${serving} -n ${ns} and kubectl delete pv ${serving}-${ns} (the pod's claim, from the same specs)` : ''} so the controller creates them again, and ${thenPod}`
        : `kubectl describe pvc ${claim} -n ${jobNs} (the download Jobs' claim) and ${look}: wait for the download to finish or fix what keeps it from starting, then ${thenPod}`,
  });
}

/** The LocalModelNode of the node: its own word on this model (ModelDownloadError, ModelDownloading). */
async function nodeModelStatus(ctx: DiagnosisContext, node: string, statusKey: string): Promise<Evidence[]> {
  const localNode = await ctx.reader.getVersioned<{ status?: { modelStatus?: Record<string, string> } }>(
    KINDS.LocalModelNode,
    '',
    node,
  );
  if (!localNode) return [];
  const status = localNode.status?.modelStatus?.[statusKey];
  return [
    {
      kind: 'field',
      ref: refOf('LocalModelNode', undefined, node),
      text: `status.modelStatus.${statusKey}: ${status ?? '(absent: the node agent has not taken the model up)'}`,
    },
  ];
}
