/**
 * For `/isvc status` and `isvc-doctor status`: the InferenceServices of a namespace, or of every
 * namespace, at every supported API version, and whether each is Ready. Lists are read in pages
 * (limit / continue), so a cluster with thousands of them is never read in one answer.
 */
import type { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { makeKubeClients } from '../kube/client.js';
import { statusOf } from '../kube/cluster-reader.js';
import { ClusterUnreachableError, KubeTimeoutError } from '../kube/errors.js';
import { isRequestTimeout, requestLimitsOf } from '../kube/request-limits.js';
import { conditionOf, isvcUrl } from '../kube/inference-service-view.js';
import { INFERENCE_SERVICE_VERSIONS, type CustomResource } from '../kube/resources.js';
import { inferenceServiceSchema, parseItems } from '../kube/schemas.js';

/** One row of a status list. */
export interface IsvcStatus {
  namespace: string;
  name: string;
  /** null when the InferenceService reports no Ready condition yet. */
  ready: boolean | null;
  reason?: string;
  url?: string;
  apiVersion: string;
  /** When its Ready condition last changed (ms since the epoch): how long it has been ready or not. */
  since?: number;
}

/** A status list; `forbidden`: the API versions whose list the bot was refused (403), to say so rather than "none". */
export type IsvcStatusList = IsvcStatus[] & { forbidden?: string[] };

export interface ListIsvcStatusOptions {
  /** Items per page (default 250). */
  pageSize?: number;
}

const PAGE_SIZE = 250;

/** The InferenceServices of `namespace` (null: every namespace), ordered as the API lists them. */
export async function listIsvcStatus(kubeConfig: KubeConfig, namespace: string | null, options: ListIsvcStatusOptions = {}): Promise<IsvcStatusList> {
  const { custom } = makeKubeClients(kubeConfig);
  const where = namespace ?? 'any namespace';
  const forbidden: string[] = [];
  const lists = await Promise.all(
    INFERENCE_SERVICE_VERSIONS.map(async (r) => {
      try {
        const items = await listAllPages(custom, r, namespace, options.pageSize ?? PAGE_SIZE);
        return parseItems(inferenceServiceSchema, items).map((o) => ({ o, apiVersion: `${r.group}/${r.version}` }));
      } catch (error) {
        const status = statusOf(error);
        if (status === 403) forbidden.push(`${r.group}/${r.version}`);
        if (status === 404 || status === 403) return [];
        if (status === undefined && isRequestTimeout(error)) throw new KubeTimeoutError(`list inferenceservices in ${where}`, requestLimitsOf(kubeConfig)?.timeoutMs ?? 0);
        throw new ClusterUnreachableError(`cannot list inferenceservices in ${where}${status ? ` (HTTP ${status})` : ''}`, status);
      }
    }),
  );
  const seen = new Set<string>();
  const out: IsvcStatusList = [];
  if (forbidden.length > 0) out.forbidden = forbidden;
  for (const { o, apiVersion } of lists.flat()) {
    const ns = o.metadata.namespace ?? namespace ?? 'default';
    if (seen.has(`${ns}/${o.metadata.name}`)) continue;
    seen.add(`${ns}/${o.metadata.name}`);
    const ready = conditionOf(o, 'Ready');
    const url = isvcUrl(o);
    out.push({
      namespace: ns,
      name: o.metadata.name,
      ready: ready ? ready.status === 'True' : null,
      apiVersion,
      ...(ready && ready.status !== 'True' ? { reason: [ready.reason, ready.message].filter(Boolean).join(': ') } : {}),
      ...(url ? { url } : {}),
      ...(ready?.lastTransitionTime && Number.isFinite(Date.parse(ready.lastTransitionTime)) ? { since: Date.parse(ready.lastTransitionTime) } : {}),
    });
  }
  return out;
}

/** Every item of one resource's list, a page at a time. */
async function listAllPages(custom: CustomObjectsApi, r: CustomResource, namespace: string | null, limit: number): Promise<unknown[]> {
  const items: unknown[] = [];
  let token: string | undefined;
  do {
    const page = { group: r.group, version: r.version, plural: r.plural, limit, ...(token ? { _continue: token } : {}) };
    const raw = (namespace === null ? await custom.listClusterCustomObject(page) : await custom.listNamespacedCustomObject({ ...page, namespace })) as {
      items?: unknown;
      metadata?: { continue?: string };
    };
    if (Array.isArray(raw?.items)) items.push(...(raw.items as unknown[]));
    token = raw?.metadata?.continue || undefined;
  } while (token);
  return items;
}
