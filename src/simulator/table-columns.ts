/**
 * The columns `kubectl get` shows per kind, as the real server prints them (built-in printers
 * for core kinds, additionalPrinterColumns for the KServe, Knative, Gateway API, LeaderWorkerSet
 * and KEDA CRDs), NAME and AGE otherwise.
 */
import { ageOf } from './human-duration.js';
import type { KubeObject } from './kube-object.js';
import { summarizePod } from './pod-status.js';
import { fieldValue } from './selectors.js';
import type { ResourceType } from './resource-registry.js';

export type Cell = string | number | boolean | null;

export interface Column {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description: string;
  priority?: number;
  cell: (object: KubeObject, now: number) => Cell;
}

type Condition = { type?: string; status?: string; reason?: string };

const nameColumn: Column = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace.',
  cell: (o) => o.metadata.name,
};
const ageColumn: Column = {
  name: 'Age',
  type: 'string',
  description: 'CreationTimestamp of the object.',
  cell: (o, now) => ageOf(o.metadata.creationTimestamp, now),
};

const text = (name: string, path: string, priority?: number): Column => ({
  name,
  type: 'string',
  description: path,
  ...(priority ? { priority } : {}),
  cell: (o) => fieldValue(o, path),
});

const label = (name: string, key: string): Column => ({
  name,
  type: 'string',
  description: `label ${key}`,
  cell: (o) => o.metadata.labels?.[key] ?? '',
});

function condition(o: KubeObject, type: string): Condition | undefined {
  const conditions = (o.status as { conditions?: Condition[] } | undefined)?.conditions;
  return Array.isArray(conditions) ? conditions.find((c) => c?.type === type) : undefined;
}

const readyStatus: Column = {
  name: 'Ready',
  type: 'string',
  description: 'Ready condition status',
  cell: (o) => condition(o, 'Ready')?.status ?? '',
};
const readyReason: Column = {
  name: 'Reason',
  type: 'string',
  description: 'Ready condition reason',
  cell: (o) => condition(o, 'Ready')?.reason ?? '',
};

type TrafficTarget = { tag?: string; latestRevision?: boolean; percent?: number; revisionName?: string };

/** A field of the predictor's traffic target that `pick` selects, as the CRD's JSONPath columns read it. */
function trafficField(o: KubeObject, pick: (t: TrafficTarget) => boolean, field: 'percent' | 'revisionName'): Cell {
  const traffic = (o.status as { components?: { predictor?: { traffic?: TrafficTarget[] } } } | undefined)?.components
    ?.predictor?.traffic;
  const found = Array.isArray(traffic) ? traffic.find(pick) : undefined;
  const value = found?.[field];
  if (field === 'percent') return typeof value === 'number' ? value : null;
  return typeof value === 'string' ? value : '';
}

const isPrev = (t: TrafficTarget): boolean => t.tag === 'prev';
const isLatest = (t: TrafficTarget): boolean => t.latestRevision === true;

const podColumns: Column[] = [
  nameColumn,
  {
    name: 'Ready',
    type: 'string',
    description: 'The aggregate readiness state of this pod for accepting traffic.',
    cell: (o) => summarizePod(o).ready,
  },
  {
    name: 'Status',
    type: 'string',
    description: 'The aggregate status of the containers in this pod.',
    cell: (o) => summarizePod(o).status,
  },
  {
    name: 'Restarts',
    type: 'string',
    description: 'The number of times the containers in this pod have been restarted.',
    cell: (o) => String(summarizePod(o).restarts),
  },
  ageColumn,
  text('IP', 'status.podIP', 1),
  text('Node', 'spec.nodeName', 1),
];

/** The additionalPrinterColumns of InferenceService v1beta1 (KServe, KFServing 0.5+). */
const inferenceServiceColumns: Column[] = [
  nameColumn,
  text('URL', 'status.url'),
  readyStatus,
  {
    name: 'Prev',
    type: 'integer',
    description: ".status.components.predictor.traffic[?(@.tag=='prev')].percent",
    cell: (o) => trafficField(o, isPrev, 'percent'),
  },
  {
    name: 'Latest',
    type: 'integer',
    description: '.status.components.predictor.traffic[?(@.latestRevision==true)].percent',
    cell: (o) => trafficField(o, isLatest, 'percent'),
  },
  {
    name: 'PrevRolledoutRevision',
    type: 'string',
    description: ".status.components.predictor.traffic[?(@.tag=='prev')].revisionName",
    cell: (o) => trafficField(o, isPrev, 'revisionName'),
  },
  {
    name: 'LatestReadyRevision',
    type: 'string',
    description: '.status.components.predictor.traffic[?(@.latestRevision==true)].revisionName',
    cell: (o) => trafficField(o, isLatest, 'revisionName'),
  },
  ageColumn,
];

/** The additionalPrinterColumns of KFServing's InferenceService v1alpha2. */
const inferenceServiceV1alpha2Columns: Column[] = [
  nameColumn,
  text('URL', 'status.url'),
  readyStatus,
  { name: 'Default Traffic', type: 'integer', description: '.status.traffic', cell: (o) => numberAt(o, 'traffic') },
  {
    name: 'Canary Traffic',
    type: 'integer',
    description: '.status.canaryTraffic',
    cell: (o) => numberAt(o, 'canaryTraffic'),
  },
  ageColumn,
];

function numberAt(o: KubeObject, field: string): Cell {
  const value = (o.status as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'number' ? value : null;
}

const knativeServiceColumns: Column[] = [
  nameColumn,
  text('URL', 'status.url'),
  text('LatestCreated', 'status.latestCreatedRevisionName'),
  text('LatestReady', 'status.latestReadyRevisionName'),
  readyStatus,
  readyReason,
];

const revisionColumns: Column[] = [
  nameColumn,
  label('Config Name', 'serving.knative.dev/configuration'),
  text('K8s Service Name', 'status.serviceName'),
  label('Generation', 'serving.knative.dev/configurationGeneration'),
  readyStatus,
  readyReason,
  text('Actual Replicas', 'status.actualReplicas'),
  text('Desired Replicas', 'status.desiredReplicas'),
];

/** A condition's status as a CRD's `.status.conditions[?(@.type=="X")].status` column prints it. */
const conditionStatus = (name: string, type: string): Column => ({
  name,
  type: 'string',
  description: `.status.conditions[?(@.type=="${type}")].status`,
  cell: (o) => condition(o, type)?.status ?? '',
});

/**
 * `.status.addresses[*].value`: the apiserver's CRD printer shows the first value a JSONPath with
 * `[*]` finds.
 */
const firstOf = (name: string, path: string, field: string, priority?: number): Column => ({
  name,
  type: 'string',
  description: `.${path}[*].${field}`,
  ...(priority ? { priority } : {}),
  cell: (o) => {
    let value: unknown = o;
    for (const part of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
    const first = Array.isArray(value) ? (value[0] as Record<string, unknown> | null | undefined)?.[field] : undefined;
    return typeof first === 'string' ? first : '';
  },
});

const integer = (name: string, path: string): Column => ({
  name,
  type: 'integer',
  description: path,
  cell: (o) => {
    const value = fieldValue(o, path);
    return value === '' ? null : Number(value);
  },
});

/** LLMInferenceService v1alpha1 / v1alpha2 (KServe 0.16+). */
const llmInferenceServiceColumns: Column[] = [
  nameColumn,
  text('URL', 'status.url'),
  readyStatus,
  readyReason,
  ageColumn,
  firstOf('URLs', 'status.addresses', 'url', 1),
];

const gatewayColumns: Column[] = [
  nameColumn,
  text('Class', 'spec.gatewayClassName'),
  firstOf('Address', 'status.addresses', 'value'),
  conditionStatus('Programmed', 'Programmed'),
  ageColumn,
];

const gatewayClassColumns: Column[] = [
  nameColumn,
  text('Controller', 'spec.controllerName'),
  conditionStatus('Accepted', 'Accepted'),
  ageColumn,
  text('Description', 'spec.description', 1),
];

const leaderWorkerSetColumns: Column[] = [
  nameColumn,
  integer('Ready', 'status.readyReplicas'),
  integer('Desired', 'spec.replicas'),
  integer('Up-to-date', 'status.updatedReplicas'),
  ageColumn,
];

const scaledObjectColumns: Column[] = [
  nameColumn,
  text('ScaleTargetKind', 'status.scaleTargetKind'),
  text('ScaleTargetName', 'spec.scaleTargetRef.name'),
  integer('Min', 'spec.minReplicaCount'),
  integer('Max', 'spec.maxReplicaCount'),
  conditionStatus('Ready', 'Ready'),
  conditionStatus('Active', 'Active'),
  conditionStatus('Fallback', 'Fallback'),
  conditionStatus('Paused', 'Paused'),
  text('Triggers', 'status.triggersTypes'),
  text('Authentications', 'status.authenticationsTypes'),
  ageColumn,
];

const deploymentColumns: Column[] = [
  nameColumn,
  {
    name: 'Ready',
    type: 'string',
    description: 'ready/desired replicas',
    cell: (o) => `${fieldValue(o, 'status.readyReplicas') || 0}/${fieldValue(o, 'spec.replicas') || 1}`,
  },
  {
    name: 'Up-to-date',
    type: 'integer',
    description: 'updated replicas',
    cell: (o) => Number(fieldValue(o, 'status.updatedReplicas') || 0),
  },
  {
    name: 'Available',
    type: 'integer',
    description: 'available replicas',
    cell: (o) => Number(fieldValue(o, 'status.availableReplicas') || 0),
  },
  ageColumn,
];

const configMapColumns: Column[] = [
  nameColumn,
  {
    name: 'Data',
    type: 'integer',
    description: 'entries in data',
    cell: (o) =>
      Object.keys((o.data as object | undefined) ?? {}).length +
      Object.keys((o.binaryData as object | undefined) ?? {}).length,
  },
  ageColumn,
];

const namespaceColumns: Column[] = [
  nameColumn,
  { name: 'Status', type: 'string', description: 'phase', cell: (o) => fieldValue(o, 'status.phase') || 'Active' },
  ageColumn,
];

const eventColumns: Column[] = [
  {
    name: 'Last Seen',
    type: 'string',
    description: 'last seen',
    cell: (o, now) => ageOf(o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp, now),
  },
  text('Type', 'type'),
  text('Reason', 'reason'),
  {
    name: 'Object',
    type: 'string',
    description: 'involved object',
    cell: (o) => `${fieldValue(o, 'involvedObject.kind').toLowerCase()}/${fieldValue(o, 'involvedObject.name')}`,
  },
  text('Message', 'message'),
];

const serviceColumns: Column[] = [
  nameColumn,
  { name: 'Type', type: 'string', description: 'type', cell: (o) => fieldValue(o, 'spec.type') || 'ClusterIP' },
  {
    name: 'Cluster-IP',
    type: 'string',
    description: 'cluster IP',
    cell: (o) => fieldValue(o, 'spec.clusterIP') || '<none>',
  },
  {
    name: 'External-IP',
    type: 'string',
    description: 'external IP',
    cell: (o) => fieldValue(o, 'spec.externalName') || '<none>',
  },
  {
    name: 'Port(s)',
    type: 'string',
    description: 'ports',
    cell: (o) => {
      const ports = ((o.spec as { ports?: { port?: number; protocol?: string }[] } | undefined)?.ports ?? []).map(
        (p) => `${p.port}/${p.protocol ?? 'TCP'}`,
      );
      return ports.length ? ports.join(',') : '<none>';
    },
  },
  ageColumn,
];

/** The columns for objects of a type. */
export function columnsFor(type: ResourceType): Column[] {
  const key = `${type.group}/${type.plural}`;
  switch (key) {
    case '/pods':
      return podColumns;
    case '/configmaps':
      return configMapColumns;
    case '/namespaces':
      return namespaceColumns;
    case '/events':
    case 'events.k8s.io/events':
      return eventColumns;
    case '/services':
      return serviceColumns;
    case 'apps/deployments':
      return deploymentColumns;
    case 'serving.kserve.io/inferenceservices':
    case 'serving.kubeflow.org/inferenceservices':
      return type.version === 'v1alpha2' ? inferenceServiceV1alpha2Columns : inferenceServiceColumns;
    case 'serving.kserve.io/llminferenceservices':
      return llmInferenceServiceColumns;
    case 'gateway.networking.k8s.io/gateways':
      return gatewayColumns;
    case 'gateway.networking.k8s.io/gatewayclasses':
      return gatewayClassColumns;
    case 'gateway.networking.k8s.io/httproutes':
    case 'gateway.networking.k8s.io/grpcroutes':
      return [nameColumn, text('Hostnames', 'spec.hostnames'), ageColumn];
    case 'leaderworkerset.x-k8s.io/leaderworkersets':
      return leaderWorkerSetColumns;
    case 'keda.sh/scaledobjects':
      return scaledObjectColumns;
    case 'serving.knative.dev/services':
      return knativeServiceColumns;
    case 'serving.knative.dev/revisions':
      return revisionColumns;
    case 'serving.knative.dev/configurations':
      return [
        nameColumn,
        text('LatestCreated', 'status.latestCreatedRevisionName'),
        text('LatestReady', 'status.latestReadyRevisionName'),
        readyStatus,
        readyReason,
      ];
    case 'serving.knative.dev/routes':
      return [nameColumn, text('URL', 'status.url'), readyStatus, readyReason];
    default:
      return [nameColumn, ageColumn];
  }
}
