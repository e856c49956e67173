/**
 * For `/isvc status` and `isvc-doctor status`: the InferenceServices (and LLMInferenceServices) of a
 * namespace, or of every namespace, at every supported API version, and whether each is Ready. Lists are read in pages
 * (limit / continue), so a cluster with thousands of them is never read in one answer.
 */
import type { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { makeKubeClients } from '../kube/client.js';
import { ClusterReader, statusOf } from '../kube/cluster-reader.js';
import { ClusterUnreachableError, KubeTimeoutError, requestFailureOf } from '../kube/errors.js';
import { isRequestTimeout, requestLimitsOf } from '../kube/request-limits.js';
import { conditionOf, isvcUrl } from '../kube/inference-service-view.js';
import { INFERENCE_SERVICE_VERSIONS, LLM_INFERENCE_SERVICE_VERSIONS, type CustomResource } from '../kube/resources.js';
import { inferenceServiceSchema, parseItems, type InferenceServiceObject } from '../kube/schemas.js';

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
  /** Set for KServe's LLMInferenceService (listed next to the InferenceServices). */
  kind?: 'llmisvc';
}

/**
 * A status list; `forbidden`: the API versions whose list the bot was refused (403), to say so rather
 * than "none"; `namespaces`: the namespaces read, when a list of several was asked for.
 */
export type IsvcStatusList = IsvcStatus[] & { forbidden?: string[]; namespaces?: string[] };

export interface ListIsvcStatusOptions {
  /** Items per page (default 250). */
  pageSize?: number;
}

const PAGE_SIZE = 250;

/** The InferenceServices of `namespace` (null: every namespace), ordered as the API lists them. */
export async function listIsvcStatus(
  kubeConfig: KubeConfig,
  namespace: string | null,
  options: ListIsvcStatusOptions = {},
): Promise<IsvcStatusList> {
  const clients = makeKubeClients(kubeConfig);
  const where = namespace ?? 'any namespace';
  const forbidden: string[] = [];
  // only the versions the cluster serves (discovery, remembered per process); all of them when unknown
  const reader = new ClusterReader(clients);
  const versions = await reader.inferenceServiceVersions().catch(() => [...INFERENCE_SERVICE_VERSIONS]);
  // discovery got no answer at all: the lists would wait out the same silence (a black-holed API) again
  const unanswered = reader.discoveryUnanswered();
  if (unanswered) throw unanswered;
  // the LLMInferenceServices too, at the most preferred version served (one converts to the other)
  const llm = (await reader.llmInferenceServiceVersions().catch(() => [...LLM_INFERENCE_SERVICE_VERSIONS])).slice(0, 1);
  const lists = await Promise.all(
    [...versions, ...llm].map(async (r) => {
      try {
        return await listRows(clients.custom, r, namespace, options.pageSize ?? PAGE_SIZE);
      } catch (error) {
        const status = statusOf(error);
        if (status === 403) forbidden.push(`${r.group}/${r.version}`);
        if (status === 404 || status === 403) return [];
        if (status === undefined && isRequestTimeout(error))
          throw new KubeTimeoutError(`list inferenceservices in ${where}`, requestLimitsOf(kubeConfig)?.timeoutMs ?? 0);
        // the socket's own reason (ECONNREFUSED, ENOTFOUND…) says whether the API server refused or was not reached
        throw new ClusterUnreachableError(
          `cannot list inferenceservices in ${where}${status ? ` (HTTP ${status})` : `: ${requestFailureOf(error, 200)}`}`,
          status,
        );
      }
    }),
  );
  const seen = new Set<string>();
  const out: IsvcStatusList = [];
  if (forbidden.length > 0) out.forbidden = forbidden;
  for (const row of lists.flat()) {
    const key = `${row.kind ?? 'isvc'}/${row.namespace}/${row.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(row);
  }
  return out;
}

/**
 * Every row of one version's list, a page at a time; each page is turned into rows before the next
 * is asked, so no more than one page of whole objects is held at once.
 */
async function listRows(
  custom: CustomObjectsApi,
  r: CustomResource,
  namespace: string | null,
  limit: number,
): Promise<IsvcStatus[]> {
  const rows: IsvcStatus[] = [];
  const apiVersion = `${r.group}/${r.version}`;
  let token: string | undefined;
  do {
    const page = {
      group: r.group,
      version: r.version,
      plural: r.plural,
      limit,
      ...(token ? { _continue: token } : {}),
    };
    const raw = (
      namespace === null
        ? await custom.listClusterCustomObject(page)
        : await custom.listNamespacedCustomObject({ ...page, namespace })
    ) as {
      items?: unknown;
      metadata?: { continue?: string };
    };
    for (const o of parseItems(inferenceServiceSchema, raw?.items)) {
      const row = rowOf(o, namespace, apiVersion);
      rows.push(r.plural === 'llminferenceservices' ? { ...row, kind: 'llmisvc' } : row);
    }
    token = raw?.metadata?.continue || undefined;
  } while (token);
  return rows;
}

function rowOf(o: InferenceServiceObject, namespace: string | null, apiVersion: string): IsvcStatus {
  const ready = conditionOf(o, 'Ready');
  const url = isvcUrl(o);
  return {
    namespace: o.metadata.namespace ?? namespace ?? 'default',
    name: o.metadata.name,
    ready: ready ? ready.status === 'True' : null,
    apiVersion,
    ...(ready && ready.status !== 'True' ? { reason: [ready.reason, ready.message].filter(Boolean).join(': ') } : {}),
    ...(url ? { url } : {}),
    ...(ready?.lastTransitionTime && Number.isFinite(Date.parse(ready.lastTransitionTime))
      ? { since: Date.parse(ready.lastTransitionTime) }
      : {}),
  };
}

/**
 * The InferenceServices of several namespaces (the ones the bot may read: `null`, every namespace,
 * one cluster-wide list), one list per namespace, merged; the list names what it read.
 */
export async function listIsvcStatusIn(
  kubeConfig: KubeConfig,
  namespaces: readonly string[] | null,
  options: ListIsvcStatusOptions = {},
): Promise<IsvcStatusList> {
  if (namespaces === null) return listIsvcStatus(kubeConfig, null, options);
  const lists = await Promise.all(namespaces.map((ns) => listIsvcStatus(kubeConfig, ns, options)));
  const out: IsvcStatusList = lists.flat();
  const forbidden = [...new Set(lists.flatMap((l) => l.forbidden ?? []))];
  if (forbidden.length > 0) out.forbidden = forbidden;
  out.namespaces = [...namespaces];
  return out;
}
