/**
 * Writes to the cluster, for approved remediations only (a diagnosis and the offers it computes get
 * only the memoised reader).
 *
 * Every read here is fresh (no memo: a plan must see the live object), every patch is a JSON merge
 * patch or a JSON patch (API servers answer 415 to strategic merge on custom resources), and every
 * write can run with `dryRun=All` first. Optimistic concurrency: a merge patch that carries
 * `metadata.resourceVersion` fails with 409 when the object changed (WriteConflictError).
 *
 * RBAC (deploy/rbac/remediation-role.yaml): get/patch inferenceservices, get/patch configmaps
 * (knative-serving/config-deployment), list/delete pods, create events.
 */
import {
  PatchStrategy,
  setHeaderOptions,
  type CoreV1Event,
  type V1LimitRange,
  type V1Pod,
} from '@kubernetes/client-node';
import { CodedError } from '../core/coded-error.js';
import type { KubeClients } from './client.js';
import { statusOf } from './cluster-reader.js';
import { ClusterUnreachableError, ForbiddenError, KubeTimeoutError, requestFailureOf } from './errors.js';
import { isRequestTimeout, requestLimitsOf } from './request-limits.js';
import type { KubeObject } from './schemas.js';
import { cutLine } from '../logs/cut-line.js';
import { redactText } from '../logs/redact.js';

/** The object a write is about. `apiVersion` "v1" for core kinds, "group/version" otherwise. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

export type PatchKind = 'merge' | 'json';

export class WriteConflictError extends CodedError<'KUBE_CONFLICT'> {
  constructor(message: string) {
    super('KUBE_CONFLICT', message);
  }
}

export class WriteRejectedError extends CodedError<'KUBE_WRITE_REJECTED'> {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super('KUBE_WRITE_REJECTED', message);
  }
}

export class ObjectGoneError extends CodedError<'KUBE_NOT_FOUND'> {
  constructor(message: string) {
    super('KUBE_NOT_FOUND', message);
  }
}

const CORE_PLURALS: Record<string, string> = {
  ConfigMap: 'configmaps',
  Pod: 'pods',
  Event: 'events',
  LimitRange: 'limitranges',
};

function customOf(ref: ObjectRef): { group: string; version: string; plural: string } {
  const [group, version] = ref.apiVersion.split('/');
  if (!group || !version) throw new WriteRejectedError(`unsupported apiVersion ${ref.apiVersion}`, 400);
  return { group, version, plural: `${ref.kind.toLowerCase()}s` };
}

export function describeRef(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace}/${ref.name}`;
}

export class ClusterWriter {
  constructor(private readonly clients: KubeClients) {}

  /** The live object, or null when it does not exist. */
  async get(ref: ObjectRef): Promise<KubeObject | null> {
    return this.call('get', ref, async () => {
      try {
        if (ref.apiVersion === 'v1' && ref.kind === 'ConfigMap')
          return (await this.clients.core.readNamespacedConfigMap({
            namespace: ref.namespace,
            name: ref.name,
          })) as unknown as KubeObject;
        if (ref.apiVersion === 'v1' && ref.kind === 'Pod')
          return (await this.clients.core.readNamespacedPod({
            namespace: ref.namespace,
            name: ref.name,
          })) as unknown as KubeObject;
        return (await this.clients.custom.getNamespacedCustomObject({
          ...customOf(ref),
          namespace: ref.namespace,
          name: ref.name,
        })) as KubeObject;
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    });
  }

  /** Patches (merge or JSON patch); with dryRun the API server validates and answers, and stores nothing. */
  async patch(ref: ObjectRef, kind: PatchKind, body: unknown, options: { dryRun?: boolean } = {}): Promise<KubeObject> {
    const headers = setHeaderOptions(
      'Content-Type',
      kind === 'merge' ? PatchStrategy.MergePatch : PatchStrategy.JsonPatch,
    );
    const dryRun = options.dryRun ? 'All' : undefined;
    return this.call('patch', ref, async () => {
      if (ref.apiVersion === 'v1' && ref.kind === 'ConfigMap') {
        return (await this.clients.core.patchNamespacedConfigMap(
          { namespace: ref.namespace, name: ref.name, body: body as object, dryRun, fieldManager: 'isvc-doctor' },
          headers,
        )) as unknown as KubeObject;
      }
      return (await this.clients.custom.patchNamespacedCustomObject(
        {
          ...customOf(ref),
          namespace: ref.namespace,
          name: ref.name,
          body: body as object,
          dryRun,
          fieldManager: 'isvc-doctor',
        },
        headers,
      )) as KubeObject;
    });
  }

  async listPods(namespace: string, labelSelector: string): Promise<V1Pod[]> {
    return this.call(
      'list',
      { apiVersion: 'v1', kind: 'Pod', namespace, name: '' },
      async () => (await this.clients.core.listNamespacedPod({ namespace, labelSelector })).items,
    );
  }

  /** LimitRanges of a namespace (to cap a memory change the way admission would). */
  async limitRanges(namespace: string): Promise<V1LimitRange[]> {
    return this.call(
      'list',
      { apiVersion: 'v1', kind: 'LimitRange', namespace, name: '' },
      async () => (await this.clients.core.listNamespacedLimitRange({ namespace })).items,
    );
  }

  /** Deletes a pod, only if it is still the one planned against (uid precondition); a pod already gone is fine. */
  async deletePod(
    namespace: string,
    name: string,
    options: { uid?: string; dryRun?: boolean } = {},
  ): Promise<'deleted' | 'gone'> {
    const ref: ObjectRef = { apiVersion: 'v1', kind: 'Pod', namespace, name };
    return this.call('delete', ref, async () => {
      try {
        await this.clients.core.deleteNamespacedPod({
          namespace,
          name,
          ...(options.dryRun ? { dryRun: 'All' } : {}),
          body: {
            ...(options.uid ? { preconditions: { uid: options.uid } } : {}),
            ...(options.dryRun ? { dryRun: ['All'] } : {}),
          },
        });
        return 'deleted';
      } catch (error) {
        if (statusOf(error) === 404) return 'gone';
        throw error;
      }
    });
  }

  /** Records a v1 Event on an object (what `kubectl describe` shows). */
  async createEvent(
    involved: ObjectRef & { uid?: string },
    event: { type: 'Normal' | 'Warning'; reason: string; message: string },
    now = new Date(),
  ): Promise<CoreV1Event> {
    const ref: ObjectRef = { apiVersion: 'v1', kind: 'Event', namespace: involved.namespace, name: involved.name };
    const body: CoreV1Event = {
      metadata: { generateName: `${involved.name}.`, namespace: involved.namespace },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        namespace: involved.namespace,
        name: involved.name,
        ...(involved.uid ? { uid: involved.uid } : {}),
      },
      type: event.type,
      reason: event.reason,
      // an Event is read by anyone who may `kubectl describe`: redacted, then cut to the API's limit without halving a marker
      message: cutLine(redactText(event.message), 1024),
      source: { component: 'isvc-doctor' },
      reportingComponent: 'isvc-doctor',
      reportingInstance: 'isvc-doctor',
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    };
    return this.call('create', ref, () =>
      this.clients.core.createNamespacedEvent({ namespace: involved.namespace, body }),
    );
  }

  private async call<T>(verb: string, ref: ObjectRef, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      const status = statusOf(error);
      const what = `${verb} ${describeRef(ref)}`;
      const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0]! : '';
      const resource = CORE_PLURALS[ref.kind] ?? `${ref.kind.toLowerCase()}s`;
      if (status === 403 || status === 401)
        throw new ForbiddenError({ verb, resource, group, namespace: ref.namespace });
      if (status === 409) throw new WriteConflictError(`${what}: the object changed since it was read (409 Conflict)`);
      if (status === 404) throw new ObjectGoneError(`${what}: not found`);
      if (status !== undefined && status < 500)
        throw new WriteRejectedError(`${what}: the API answered ${status}: ${messageOf(error)}`, status);
      if (status === undefined && isRequestTimeout(error))
        throw new KubeTimeoutError(what, requestLimitsOf(this.clients.kubeConfig)?.timeoutMs ?? 0);
      if (status === undefined)
        throw new ClusterUnreachableError(`cannot reach the Kubernetes API (${what}): ${messageOf(error)}`);
      throw new ClusterUnreachableError(`the Kubernetes API answered ${status} to ${what}`, status);
    }
  }
}

function messageOf(error: unknown): string {
  const body = (error as { body?: unknown })?.body;
  if (typeof body === 'string') {
    try {
      return String((JSON.parse(body) as { message?: string }).message ?? body).slice(0, 300);
    } catch {
      return body.slice(0, 300);
    }
  }
  if (body && typeof body === 'object' && 'message' in body)
    return String((body as { message: unknown }).message).slice(0, 300);
  return requestFailureOf(error, 300);
}
