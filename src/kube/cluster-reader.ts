import type { CoreV1Event, V1ConfigMap, V1LimitRange, V1Pod, V1ResourceQuota } from '@kubernetes/client-node';
import type { z } from 'zod';
import type { KubeClients } from './client.js';
import { ClusterUnreachableError, ForbiddenError, type DeniedRequest } from './errors.js';
import {
  CLUSTER_SERVING_RUNTIME,
  INFERENCE_SERVICE_VERSIONS,
  ISTIO_AUTHORIZATION_POLICY,
  ISTIO_CLUSTER_RBAC_CONFIG,
  ISTIO_GATEWAY,
  ISTIO_VIRTUAL_SERVICE,
  KNATIVE_REVISION,
  KNATIVE_SERVICE,
  SERVING_RUNTIME,
  type CustomResource,
} from './resources.js';
import {
  inferenceServiceSchema,
  knativeServiceSchema,
  kubeObjectSchema,
  parseItems,
  revisionSchema,
  type InferenceServiceObject,
  type KnativeService,
  type KubeObject,
  type Revision,
} from './schemas.js';

export interface FoundInferenceService {
  resource: CustomResource;
  object: InferenceServiceObject;
}

export interface LogOptions {
  previous?: boolean;
  tailLines?: number;
  limitBytes?: number;
}

/** Pod logs are always read bounded: a diagnosis needs the end of a log, never all of it. */
export const DEFAULT_LOG_TAIL_LINES = 400;
export const DEFAULT_LOG_LIMIT_BYTES = 256 * 1024;

/**
 * Read-only access to the cluster for one diagnosis. Every read is memoised (playbooks running
 * concurrently share one request), 404 becomes `null` / `[]` (also when a custom resource's group
 * is not installed), 403 is recorded (the runner reports it as BOT_FORBIDDEN) and thrown as
 * ForbiddenError, anything else is a ClusterUnreachableError.
 */
export class ClusterReader {
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly deniedRequests = new Map<string, DeniedRequest>();

  constructor(private readonly clients: KubeClients) {}

  /** Requests the API refused so far, one per distinct verb/resource/namespace. */
  denied(): DeniedRequest[] {
    return [...this.deniedRequests.values()];
  }

  requestCount(): number {
    return this.clients.requestCount();
  }

  /** The InferenceService under any supported API version (asked concurrently), preferring the newest. */
  inferenceService(namespace: string, name: string): Promise<FoundInferenceService | null> {
    return this.once(`isvc/${namespace}/${name}`, async () => {
      const found = await Promise.all(
        INFERENCE_SERVICE_VERSIONS.map((resource) =>
          this.getCustom(resource, namespace, name, inferenceServiceSchema),
        ),
      );
      const index = found.findIndex((o) => o !== null);
      if (index < 0) return null;
      return { resource: INFERENCE_SERVICE_VERSIONS[index]!, object: found[index]! };
    });
  }

  /** InferenceService names in a namespace under every supported API version (for "did you mean"). */
  inferenceServiceNames(namespace: string): Promise<string[]> {
    return this.once(`isvc-names/${namespace}`, async () => {
      const lists = await Promise.all(
        INFERENCE_SERVICE_VERSIONS.map((r) => this.listCustom(r, namespace, kubeObjectSchema)),
      );
      return [...new Set(lists.flat().map((o) => o.metadata.name))].sort();
    });
  }

  knativeServices(namespace: string): Promise<KnativeService[]> {
    return this.listCustom(KNATIVE_SERVICE, namespace, knativeServiceSchema);
  }

  revisions(namespace: string): Promise<Revision[]> {
    return this.listCustom(KNATIVE_REVISION, namespace, revisionSchema);
  }


  gateway(namespace: string, name: string): Promise<KubeObject | null> {
    return this.getCustom(ISTIO_GATEWAY, namespace, name, kubeObjectSchema);
  }

  virtualServices(namespace: string): Promise<KubeObject[]> {
    return this.listCustom(ISTIO_VIRTUAL_SERVICE, namespace, kubeObjectSchema);
  }

  authorizationPolicies(namespace: string): Promise<KubeObject[]> {
    return this.listCustom(ISTIO_AUTHORIZATION_POLICY, namespace, kubeObjectSchema);
  }

  clusterRbacConfigs(): Promise<KubeObject[]> {
    return this.listCustom(ISTIO_CLUSTER_RBAC_CONFIG, undefined, kubeObjectSchema);
  }

  servingRuntimes(namespace: string): Promise<KubeObject[]> {
    return this.listCustom(SERVING_RUNTIME, namespace, kubeObjectSchema);
  }

  clusterServingRuntimes(): Promise<KubeObject[]> {
    return this.listCustom(CLUSTER_SERVING_RUNTIME, undefined, kubeObjectSchema);
  }

  pods(namespace: string, labelSelector?: string): Promise<V1Pod[]> {
    return this.once(`pods/${namespace}/${labelSelector ?? ''}`, () =>
      this.call({ verb: 'list', resource: 'pods', group: '', namespace }, async () =>
        (await this.clients.core.listNamespacedPod({ namespace, labelSelector })).items,
      ),
    );
  }

  events(namespace: string): Promise<CoreV1Event[]> {
    return this.once(`events/${namespace}`, () =>
      this.call({ verb: 'list', resource: 'events', group: '', namespace }, async () =>
        (await this.clients.core.listNamespacedEvent({ namespace })).items,
      ),
    );
  }



  configMap(namespace: string, name: string): Promise<V1ConfigMap | null> {
    return this.once(`configmap/${namespace}/${name}`, () =>
      this.call({ verb: 'get', resource: 'configmaps', group: '', namespace }, () => this.clients.core.readNamespacedConfigMap({ namespace, name }), {
        notFound: null,
      }),
    );
  }

  resourceQuotas(namespace: string): Promise<V1ResourceQuota[]> {
    return this.once(`quotas/${namespace}`, () =>
      this.call({ verb: 'list', resource: 'resourcequotas', group: '', namespace }, async () =>
        (await this.clients.core.listNamespacedResourceQuota({ namespace })).items,
      ),
    );
  }

  limitRanges(namespace: string): Promise<V1LimitRange[]> {
    return this.once(`limitranges/${namespace}`, () =>
      this.call({ verb: 'list', resource: 'limitranges', group: '', namespace }, async () =>
        (await this.clients.core.listNamespacedLimitRange({ namespace })).items,
      ),
    );
  }

  /** A container's log (bounded by tailLines/limitBytes); null when there is none (not started, no previous instance). */
  podLog(namespace: string, pod: string, container: string, options: LogOptions = {}): Promise<string | null> {
    const previous = options.previous ?? false;
    const tailLines = options.tailLines ?? DEFAULT_LOG_TAIL_LINES;
    const limitBytes = options.limitBytes ?? DEFAULT_LOG_LIMIT_BYTES;
    return this.once(`log/${namespace}/${pod}/${container}/${previous}/${tailLines}/${limitBytes}`, () =>
      this.call(
        { verb: 'get', resource: 'pods/log', group: '', namespace },
        async () => {
          const text = await this.clients.core.readNamespacedPodLog({ namespace, name: pod, container, previous, tailLines, limitBytes });
          return typeof text === 'string' ? text : String(text ?? '');
        },
        { notFound: null, badRequest: null },
      ),
    );
  }

  private getCustom<T>(
    resource: CustomResource,
    namespace: string,
    name: string,
    schema: z.ZodType<T>,
  ): Promise<T | null> {
    const key = `get/${resource.group}/${resource.version}/${resource.plural}/${namespace}/${name}`;
    return this.once(key, () =>
      this.call(
        { verb: 'get', resource: resource.plural, group: resource.group, namespace },
        async () => {
          const raw: unknown = resource.namespaced
            ? await this.clients.custom.getNamespacedCustomObject({ group: resource.group, version: resource.version, namespace, plural: resource.plural, name })
            : await this.clients.custom.getClusterCustomObject({ group: resource.group, version: resource.version, plural: resource.plural, name });
          const parsed = schema.safeParse(raw);
          return parsed.success ? parsed.data : null;
        },
        { notFound: null },
      ),
    );
  }

  private listCustom<T>(
    resource: CustomResource,
    namespace: string | undefined,
    schema: z.ZodType<T>,
    labelSelector?: string,
  ): Promise<T[]> {
    const key = `list/${resource.group}/${resource.version}/${resource.plural}/${namespace ?? '*'}/${labelSelector ?? ''}`;
    return this.once(key, () =>
      this.call(
        { verb: 'list', resource: resource.plural, group: resource.group, ...(namespace ? { namespace } : {}) },
        async () => {
          const { group, version, plural } = resource;
          const raw = (
            namespace && resource.namespaced
              ? await this.clients.custom.listNamespacedCustomObject({ group, version, namespace, plural, labelSelector })
              : await this.clients.custom.listClusterCustomObject({ group, version, plural, labelSelector })
          ) as { items?: unknown };
          return parseItems(schema, raw?.items);
        },
        { notFound: [] as T[] },
      ),
    );
  }

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.memo.set(key, p);
    }
    return p;
  }

  private async call<T, F = never>(
    request: DeniedRequest,
    send: () => Promise<T>,
    fallbacks: { notFound?: F; badRequest?: F } = {},
  ): Promise<T | F> {
    try {
      return await send();
    } catch (error) {
      const status = statusOf(error);
      if (status === 404 && 'notFound' in fallbacks) return fallbacks.notFound as F;
      if (status === 400 && 'badRequest' in fallbacks) return fallbacks.badRequest as F;
      if (status === 403 || status === 401) {
        const key = `${request.verb}/${request.group}/${request.resource}/${request.namespace ?? ''}`;
        this.deniedRequests.set(key, request);
        throw new ForbiddenError(request);
      }
      const what = `${request.verb} ${request.resource}${request.namespace ? ` in ${request.namespace}` : ''}`;
      if (status === undefined) throw new ClusterUnreachableError(`cannot reach the Kubernetes API (${what}): ${messageOf(error)}`);
      throw new ClusterUnreachableError(`the Kubernetes API answered ${status} to ${what}: ${messageOf(error)}`, status);
    }
  }
}

/** The HTTP status of a client-node ApiException, or undefined for network errors. */
export function statusOf(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'number' && code >= 100 && code < 600) return code;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'body' in error) {
    const body = (error as { body: unknown }).body;
    if (typeof body === 'string') {
      try {
        const parsed = JSON.parse(body) as { message?: string };
        if (parsed.message) return parsed.message;
      } catch {
        return body.slice(0, 200);
      }
    } else if (body && typeof body === 'object' && 'message' in body) {
      return String((body as { message: unknown }).message);
    }
  }
  return error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error);
}
