/**
 * What KServe, Knative and the kubelet would write for an InferenceService in a given state, written
 * into the simulator's store by the playground's controller (the simulator runs no controllers):
 * healthy (every condition True, pods running and ready), model container OOMKilled, or the
 * storage-initializer failing on a missing storageUri (with its log). Pods keep their names; the
 * container memory limit follows the InferenceService's.
 */
import type { ObjectStore } from '../../simulator/simulator.js';
import { knativeObjectsOf, podsOf, type KubeObject } from './related-objects.js';

export type Failure = { kind: 'oom'; limit: string } | { kind: 'storage'; uri: string };

type Obj = Record<string, any>;
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const SIDECARS = new Set(['queue-proxy', 'istio-proxy']);

/** Logs the simulator serves, keyed `${ns}/${pod}/${container}` (`#previous` for the last instance). */
export type LogMap = Map<string, string>;

export function writeHealthy(
  store: ObjectStore,
  isvc: KubeObject,
  options: { memoryLimit?: string; servingRevisions?: Set<string> },
): void {
  const { namespace = '', name } = isvc.metadata;
  for (const object of knativeObjectsOf(store, namespace, name)) {
    if (object.kind === 'Revision' && options.servingRevisions && !options.servingRevisions.has(object.metadata.name))
      continue;
    store.upsert(withConditions(object, () => ({ status: 'True' })));
  }
  for (const pod of podsOf(store, namespace, name)) {
    const revision = (pod.metadata.labels as Obj | undefined)?.['serving.knative.dev/revision'] as string | undefined;
    if (revision && options.servingRevisions && !options.servingRevisions.has(revision)) {
      store.delete('v1', 'Pod', namespace, pod.metadata.name); // scaled to zero: no traffic
      continue;
    }
    store.upsert(healthyPod(pod, options.memoryLimit));
    deleteWarnings(store, namespace, pod.metadata.name);
  }
  const status = { ...(isvc.status as Obj) };
  if (status.modelStatus)
    status.modelStatus = {
      states: { activeModelState: 'Loaded', targetModelState: 'Loaded' },
      transitionStatus: 'UpToDate',
    };
  store.upsert(
    withConditions({ ...isvc, status: { ...status, observedGeneration: isvc.metadata.generation } }, () => ({
      status: 'True',
    })),
  );
}

export function writeFailing(store: ObjectStore, logs: LogMap, isvc: KubeObject, failure: Failure): void {
  const { namespace = '', name } = isvc.metadata;
  const message =
    failure.kind === 'oom'
      ? { reason: 'ExitCode137', text: 'Container failed with: OOMKilled' }
      : {
          reason: 'ExitCode1',
          text: `Container failed with: RuntimeError: Failed to fetch model. No model found in ${failure.uri}.`,
        };
  for (const pod of podsOf(store, namespace, name)) {
    store.upsert(failure.kind === 'oom' ? oomPod(pod, failure.limit) : storagePod(pod, logs, failure.uri));
    store.upsert(backOffEvent(pod, failure.kind === 'oom' ? modelContainer(pod) : 'storage-initializer'));
  }
  for (const object of knativeObjectsOf(store, namespace, name)) {
    const reason =
      object.kind === 'Revision'
        ? message.reason
        : object.kind === 'Configuration'
          ? 'RevisionFailed'
          : 'RevisionMissing';
    store.upsert(
      withConditions(object, (c) =>
        c.type === 'Active'
          ? { status: 'Unknown', reason: 'Deploying' }
          : { status: 'False', reason, message: message.text },
      ),
    );
  }
  const failed = (c: Obj) =>
    /Ready$/.test(String(c.type)) && c.type !== 'IngressReady'
      ? {
          status: 'False',
          reason: 'RevisionMissing',
          message: `Revision for ${name} failed with message: ${message.text}.`,
        }
      : { status: c.status };
  const status: Obj = { ...(isvc.status as Obj), observedGeneration: isvc.metadata.generation };
  if (status.modelStatus)
    status.modelStatus = {
      states: { activeModelState: '', targetModelState: 'FailedToLoad' },
      transitionStatus: 'BlockedByFailedLoad',
      lastFailureInfo: { reason: 'ModelLoadFailed', message: message.text, exitCode: failure.kind === 'oom' ? 137 : 1 },
    };
  store.upsert(withConditions({ ...isvc, status }, failed));
}

/** Only records that the controller has seen the new spec. */
export function writeObserved(store: ObjectStore, isvc: KubeObject): void {
  store.upsert({ ...isvc, status: { ...(isvc.status as Obj), observedGeneration: isvc.metadata.generation } });
}

export function withConditions(object: KubeObject, change: (c: Obj) => Obj): KubeObject {
  const status = { ...((object.status as Obj | undefined) ?? {}) };
  const conditions = (status.conditions ?? []) as Obj[];
  status.conditions = conditions.map((c) => {
    const next: Obj = { type: c.type, ...(c.severity ? { severity: c.severity } : {}), ...change(c) };
    return next.status === c.status && next.reason === c.reason
      ? { ...next, lastTransitionTime: c.lastTransitionTime }
      : { ...next, lastTransitionTime: now() };
  });
  return { ...object, status };
}

function modelContainer(pod: KubeObject): string {
  const containers = ((pod.spec as Obj)?.containers ?? []) as Obj[];
  return String(containers.find((c) => !SIDECARS.has(c.name))?.name ?? 'kserve-container');
}

function setLimit(pod: KubeObject, limit: string | undefined): Obj {
  const spec = structuredClone((pod.spec as Obj) ?? {});
  if (!limit) return spec;
  const target = modelContainer(pod);
  for (const c of (spec.containers ?? []) as Obj[]) {
    if (c.name !== target) continue;
    c.resources = { ...(c.resources ?? {}), limits: { ...(c.resources?.limits ?? {}), memory: limit } };
    const request = c.resources.requests?.memory;
    if (request !== undefined) c.resources.requests = { ...c.resources.requests, memory: limit };
  }
  return spec;
}

function podConditions(ready: boolean): Obj[] {
  const types = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
  return types.map((type) => ({
    type,
    status: ready || type === 'PodScheduled' || type === 'Initialized' ? 'True' : 'False',
    lastTransitionTime: now(),
    ...(ready || type === 'PodScheduled' || type === 'Initialized' ? {} : { reason: 'ContainersNotReady' }),
  }));
}

export function healthyPod(pod: KubeObject, limit: string | undefined): KubeObject {
  const status = { ...((pod.status as Obj) ?? {}) };
  const started = now();
  status.phase = 'Running';
  delete status.reason;
  status.conditions = podConditions(true);
  status.initContainerStatuses = ((status.initContainerStatuses ?? []) as Obj[]).map((s) => ({
    ...s,
    ready: true,
    restartCount: 0,
    lastState: {},
    state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: started, finishedAt: started } },
  }));
  status.containerStatuses = ((status.containerStatuses ?? []) as Obj[]).map((s) => ({
    ...s,
    ready: true,
    started: true,
    restartCount: 0,
    lastState: {},
    state: { running: { startedAt: started } },
  }));
  return { ...pod, spec: setLimit(pod, limit), status };
}

function oomPod(pod: KubeObject, limit: string): KubeObject {
  const target = modelContainer(pod);
  const status = { ...(healthyPod(pod, limit).status as Obj) };
  const at = now();
  status.conditions = podConditions(false);
  status.containerStatuses = (status.containerStatuses as Obj[]).map((s) =>
    s.name === target
      ? {
          ...s,
          ready: false,
          started: false,
          restartCount: 4,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: `back-off 1m20s restarting failed container=${target} pod=${pod.metadata.name}`,
            },
          },
          lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: at, finishedAt: at } },
        }
      : { ...s, ready: SIDECARS.has(String(s.name)) ? s.ready : false },
  );
  return { ...pod, spec: setLimit(pod, limit), status };
}

function storagePod(pod: KubeObject, logs: LogMap, uri: string): KubeObject {
  const status = { ...((pod.status as Obj) ?? {}) };
  const at = now();
  status.phase = 'Pending';
  status.conditions = podConditions(false).map((c) =>
    c.type === 'Initialized' ? { ...c, status: 'False', reason: 'ContainersNotInitialized' } : c,
  );
  status.initContainerStatuses = ((status.initContainerStatuses ?? []) as Obj[]).map((s) =>
    s.name === 'storage-initializer'
      ? {
          ...s,
          ready: false,
          restartCount: 3,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: `back-off 40s restarting failed container=storage-initializer pod=${pod.metadata.name}`,
            },
          },
          lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: at, finishedAt: at } },
        }
      : s,
  );
  status.containerStatuses = ((status.containerStatuses ?? []) as Obj[]).map((s) => ({
    ...s,
    ready: false,
    started: false,
    restartCount: 0,
    lastState: {},
    state: { waiting: { reason: 'PodInitializing' } },
  }));
  const key = `${pod.metadata.namespace}/${pod.metadata.name}/storage-initializer`;
  const log = storageLog(uri);
  logs.set(key, log);
  logs.set(`${key}#previous`, log);
  return { ...pod, status };
}

function storageLog(uri: string): string {
  const t = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '');
  return [
    `${t} INFO [storage.py:download():66] Copying contents of ${uri} to local`,
    'Traceback (most recent call last):',
    '  File "/storage-initializer/scripts/initializer-entrypoint", line 16, in <module>',
    '    kserve.Storage.download(src_uri, dest_path)',
    '  File "/usr/local/lib/python3.9/site-packages/kserve/storage.py", line 78, in download',
    '    model_dir = Storage._download_gcs(uri, out_dir)',
    '  File "/usr/local/lib/python3.9/site-packages/kserve/storage.py", line 290, in _download_gcs',
    `    raise RuntimeError("Failed to fetch model. No model found in %s." % uri)`,
    `RuntimeError: Failed to fetch model. No model found in ${uri}.`,
    '',
  ].join('\n');
}

function backOffEvent(pod: KubeObject, container: string): Obj {
  const at = now();
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${pod.metadata.name}.playground-backoff`, namespace: pod.metadata.namespace },
    involvedObject: {
      kind: 'Pod',
      name: pod.metadata.name,
      namespace: pod.metadata.namespace,
      fieldPath: `spec.containers{${container}}`,
      apiVersion: 'v1',
    },
    reason: 'BackOff',
    message: `Back-off restarting failed container ${container} in pod ${pod.metadata.name}`,
    type: 'Warning',
    count: 4,
    firstTimestamp: at,
    lastTimestamp: at,
    source: { component: 'kubelet' },
  };
}

export function deleteWarnings(store: ObjectStore, namespace: string, pod: string): void {
  for (const event of store.list('v1', 'Event', namespace)) {
    const involved = event.involvedObject as Obj | undefined;
    if (involved?.kind === 'Pod' && involved.name === pod && event.type === 'Warning')
      store.delete('v1', 'Event', namespace, event.metadata.name);
  }
}
