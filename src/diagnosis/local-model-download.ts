/**
 * Where KServe's local model cache downloads a model, and what can keep a download from starting.
 * The node agent runs one Job per model and node in `localModel.jobNamespace` of inferenceservice-config
 * (labels model=<cache>, node=<node>); each Job mounts the claim `<cache>-<node group>` of that
 * namespace, which the LocalModelCache controller creates with its volume `<cache>-<node group>-download`
 * from the LocalModelNodeGroup's persistentVolumeClaimSpec and persistentVolumeSpec. A claim whose
 * storageClassName the volume does not have never binds (VolumeMismatch), so no download starts.
 */
import type { Evidence } from '../findings/types.js';
import { refOf } from '../kube/inference-service-view.js';
import { KINDS } from '../kube/resources.js';
import type { DiagnosisContext } from './playbook.js';

/** Which cache serves a model, by the service's labels: the kind, where it is, its key in a LocalModelNode. */
export interface CacheRef {
  kind: 'LocalModelCache' | 'LocalModelNamespaceCache';
  name: string;
  /** Set for a LocalModelNamespaceCache. */
  namespace?: string;
  /** LocalModelNode status.modelStatus key: the name, or namespace/name. */
  statusKey: string;
  /** Label selector of its download Jobs. */
  jobSelector: (node?: string) => string;
  /** The download claim in the Jobs' namespace, for a node group. */
  downloadClaim: (group: string) => string;
}

export function cacheRefOf(name: string, namespace: string | undefined): CacheRef {
  return namespace
    ? {
        kind: 'LocalModelNamespaceCache',
        name,
        namespace,
        statusKey: `${namespace}/${name}`,
        jobSelector: (node) => `-l model=${name},modelNamespace=${namespace}${node ? `,node=${node}` : ''}`,
        downloadClaim: (group) => `${name}-${group}-${namespace}-download`,
      }
    : {
        kind: 'LocalModelCache',
        name,
        statusKey: name,
        jobSelector: (node) => `-l model=${name}${node ? `,node=${node}` : ''}`,
        downloadClaim: (group) => `${name}-${group}`,
      };
}

/** KServe's default `localModel.jobNamespace`. */
export const DEFAULT_JOB_NAMESPACE = 'kserve-localmodel-jobs';
const CONTROLLER_NAMESPACES = ['kserve', 'kfserving-system', 'kubeflow'];

/** The namespace of the download Jobs: inferenceservice-config's localModel.jobNamespace, else KServe's default. */
export async function jobNamespaceOf(ctx: DiagnosisContext): Promise<{ namespace: string; configured: boolean }> {
  const configs = await Promise.all(
    CONTROLLER_NAMESPACES.map((ns) => ctx.reader.configMap(ns, 'inferenceservice-config').catch(() => null)),
  );
  for (const cm of configs) {
    const raw = cm?.data?.localModel;
    if (!raw) continue;
    try {
      const jobNamespace = (JSON.parse(raw) as { jobNamespace?: unknown }).jobNamespace;
      if (typeof jobNamespace === 'string' && jobNamespace) return { namespace: jobNamespace, configured: true };
    } catch {
      // a localModel key that is not JSON: the controller would refuse it too; fall back to the default
    }
  }
  return { namespace: DEFAULT_JOB_NAMESPACE, configured: false };
}

interface NodeGroupObject {
  spec?: {
    persistentVolumeSpec?: { storageClassName?: string };
    persistentVolumeClaimSpec?: { storageClassName?: string };
  };
}

/** A node group whose claims ask for a storage class its volumes do not have: the download claim never binds. */
export async function claimClassMismatch(
  ctx: DiagnosisContext,
  group: string,
): Promise<{ pvClass: string; pvcClass: string; evidence: Evidence } | undefined> {
  const nodeGroup = await ctx.reader.getVersioned<NodeGroupObject>(KINDS.LocalModelNodeGroup, '', group);
  if (!nodeGroup) return undefined;
  const pvClass = nodeGroup.spec?.persistentVolumeSpec?.storageClassName ?? '';
  const pvcClass = nodeGroup.spec?.persistentVolumeClaimSpec?.storageClassName ?? '';
  if (pvClass === pvcClass) return undefined;
  return {
    pvClass,
    pvcClass,
    evidence: {
      kind: 'field',
      ref: refOf('LocalModelNodeGroup', undefined, group),
      text: `persistentVolumeSpec.storageClassName: ${pvClass || '(none)'}; persistentVolumeClaimSpec.storageClassName: ${pvcClass || '(none)'}`,
    },
  };
}
