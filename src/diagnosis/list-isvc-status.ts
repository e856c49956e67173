/** For `/isvc status`: the InferenceServices of a namespace (every supported API version) and whether each is Ready. */
import type { KubeConfig } from '@kubernetes/client-node';
import { makeKubeClients } from '../kube/client.js';
import { statusOf } from '../kube/cluster-reader.js';
import { ClusterUnreachableError } from '../kube/errors.js';
import { conditionOf, isvcUrl } from '../kube/inference-service-view.js';
import { INFERENCE_SERVICE_VERSIONS } from '../kube/resources.js';
import { inferenceServiceSchema, parseItems } from '../kube/schemas.js';

/** One row of `/isvc status`. */
export interface IsvcStatus {
  name: string;
  /** null when the InferenceService reports no Ready condition yet. */
  ready: boolean | null;
  reason?: string;
  url?: string;
  apiVersion: string;
}

export async function listIsvcStatus(kubeConfig: KubeConfig, namespace: string): Promise<IsvcStatus[]> {
  const { custom } = makeKubeClients(kubeConfig);
  const lists = await Promise.all(
    INFERENCE_SERVICE_VERSIONS.map(async (r) => {
      try {
        const raw = (await custom.listNamespacedCustomObject({ group: r.group, version: r.version, namespace, plural: r.plural })) as { items?: unknown };
        return parseItems(inferenceServiceSchema, raw?.items).map((o) => ({ o, apiVersion: `${r.group}/${r.version}` }));
      } catch (error) {
        const status = statusOf(error);
        if (status === 404 || status === 403) return [];
        throw new ClusterUnreachableError(`cannot list inferenceservices in ${namespace}${status ? ` (HTTP ${status})` : ''}`, status);
      }
    }),
  );
  const seen = new Set<string>();
  const out: IsvcStatus[] = [];
  for (const { o, apiVersion } of lists.flat()) {
    if (seen.has(o.metadata.name)) continue;
    seen.add(o.metadata.name);
    const ready = conditionOf(o, 'Ready');
    const url = isvcUrl(o);
    out.push({
      name: o.metadata.name,
      ready: ready ? ready.status === 'True' : null,
      apiVersion,
      ...(ready && ready.status !== 'True' ? { reason: [ready.reason, ready.message].filter(Boolean).join(': ') } : {}),
      ...(url ? { url } : {}),
    });
  }
  return out;
}
