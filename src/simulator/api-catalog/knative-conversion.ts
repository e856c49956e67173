/**
 * Knative Serving's conversion webhook (0.13 to 0.18) for Service, Configuration, Revision and
 * Route, as `pkg/apis/serving/v1alpha1/*_conversion.go` does it: v1beta1 is v1's schema; v1alpha1
 * runLatest / release / pinned become template + traffic (manual mode and build cannot convert),
 * `revisionTemplate` and a single `container` become `template` / `containers`, a traffic
 * target's `name` becomes its `tag`, status keeps the Ready condition and the kind's own
 * conditions, and a v1alpha1 address gains `hostname`.
 */
import { isPlainObject, type KubeObject } from '../kube-object.js';

type Json = Record<string, unknown>;

export class ConversionError extends Error {}

const obj = (value: unknown): Json => (isPlainObject(value) ? value : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);

/** The kind's own condition types (besides Ready / Succeeded), as v1's Is<Kind>Condition lists them. */
const CONDITIONS: Record<string, string[]> = {
  Service: ['ConfigurationsReady', 'RoutesReady'],
  Configuration: [],
  Revision: ['ResourcesAvailable', 'ContainerHealthy', 'Active'],
  Route: ['AllTrafficAssigned', 'IngressReady', 'CertificateProvisioned'],
};

export function knativeConvert(source: KubeObject, toVersion: string): KubeObject {
  const fromVersion = source.apiVersion.split('/')[1] ?? '';
  const v1 = fromVersion === 'v1alpha1' ? v1alpha1ToV1(source) : source;
  const sink = toVersion === 'v1alpha1' ? v1ToV1alpha1(v1) : v1;
  return { ...sink, apiVersion: `serving.knative.dev/${toVersion}` };
}

function v1alpha1ToV1(source: KubeObject): KubeObject {
  const spec = obj(source.spec);
  const sink: KubeObject = { ...source };
  if (source.spec !== undefined) {
    if (source.kind === 'Service') sink.spec = serviceSpecToV1(spec);
    else if (source.kind === 'Configuration') sink.spec = configurationSpecToV1(spec);
    else if (source.kind === 'Revision') sink.spec = revisionSpecToV1(spec);
    else if (source.kind === 'Route') sink.spec = { ...spec, traffic: list(spec.traffic).map(trafficToV1) };
  }
  if (source.status !== undefined) sink.status = statusToV1(source.kind, obj(source.status));
  return sink;
}

function serviceSpecToV1(spec: Json): Json {
  if (isPlainObject(spec.runLatest)) {
    return {
      ...configurationSpecToV1(obj(spec.runLatest.configuration)),
      traffic: [{ percent: 100, latestRevision: true }],
    };
  }
  if (isPlainObject(spec.release))
    return { ...configurationSpecToV1(obj(spec.release.configuration)), traffic: releaseTraffic(spec.release) };
  if (isPlainObject(spec.pinned)) {
    return {
      ...configurationSpecToV1(obj(spec.pinned.configuration)),
      traffic: [{ revisionName: spec.pinned.revisionName, percent: 100 }],
    };
  }
  if (isPlainObject(spec.manual)) throw new ConversionError('manual mode cannot be migrated forward.: spec.manual');
  return {
    ...configurationSpecToV1(spec),
    ...(spec.traffic !== undefined ? { traffic: list(spec.traffic).map(trafficToV1) } : {}),
  };
}

function releaseTraffic(release: Json): Json[] {
  const revisions = Array.isArray(release.revisions) ? (release.revisions as string[]) : [];
  const rollout = typeof release.rolloutPercent === 'number' ? release.rolloutPercent : 0;
  const named = (revisionName: string | undefined, percent: number, tag: string): Json =>
    revisionName === '@latest' ? { percent, tag, latestRevision: true } : { revisionName, percent, tag };
  const targets =
    revisions.length === 2
      ? [named(revisions[0], 100 - rollout, 'current'), named(revisions[1], rollout, 'candidate')]
      : [named(revisions[0], 100, 'current')];
  return [...targets, { tag: 'latest', latestRevision: true }];
}

function configurationSpecToV1(spec: Json): Json {
  if (spec.build !== undefined) throw new ConversionError('build cannot be migrated forward.: spec.build');
  if (spec.revisionTemplate !== undefined && spec.template !== undefined)
    throw new ConversionError('expected exactly one, got both: revisionTemplate, template');
  if (spec.revisionTemplate === undefined && spec.template === undefined)
    throw new ConversionError('expected exactly one, got neither: revisionTemplate, template');
  const template = obj(spec.revisionTemplate ?? spec.template);
  return {
    template: {
      ...(template.metadata !== undefined ? { metadata: template.metadata } : {}),
      spec: revisionSpecToV1(obj(template.spec)),
    },
  };
}

const DEPRECATED_REVISION_FIELDS = [
  'generation',
  'servingState',
  'concurrencyModel',
  'buildName',
  'buildRef',
  'container',
];

function revisionSpecToV1(spec: Json): Json {
  const hasContainers = Array.isArray(spec.containers) && spec.containers.length > 0;
  if (spec.container !== undefined && hasContainers)
    throw new ConversionError('expected exactly one, got both: container, containers');
  const limits = {
    ...(spec.timeoutSeconds !== undefined ? { timeoutSeconds: spec.timeoutSeconds } : {}),
    ...(spec.containerConcurrency !== undefined ? { containerConcurrency: spec.containerConcurrency } : {}),
  };
  if (spec.container !== undefined) {
    const keep = ['serviceAccountName', 'volumes', 'imagePullSecrets'].filter((k) => spec[k] !== undefined);
    return { ...Object.fromEntries(keep.map((k) => [k, spec[k]])), containers: [spec.container], ...limits };
  }
  if (!hasContainers) throw new ConversionError('expected exactly one, got neither: container, containers');
  return Object.fromEntries(Object.entries(spec).filter(([k]) => !DEPRECATED_REVISION_FIELDS.includes(k)));
}

function trafficToV1(target: Json): Json {
  const { name, ...rest } = target;
  return name !== undefined && rest.tag === undefined ? { ...rest, tag: name } : rest;
}

function statusToV1(kind: string, status: Json): Json {
  const sink = filterConditions(kind, status);
  if (isPlainObject(status.address)) {
    const { hostname, ...address } = status.address;
    sink.address =
      address.url === undefined && typeof hostname === 'string' && hostname ? { url: `http://${hostname}` } : address;
  }
  if (Array.isArray(status.traffic)) sink.traffic = list(status.traffic).map(trafficToV1);
  if (kind === 'Revision' && Array.isArray(status.containerStatuses)) {
    sink.containerStatuses = list(status.containerStatuses).map((c) => ({
      name: c.name,
      ...(c.imageDigest !== undefined ? { imageDigest: c.imageDigest } : {}),
    }));
  }
  return sink;
}

function v1ToV1alpha1(source: KubeObject): KubeObject {
  if (source.status === undefined) return source;
  const status = filterConditions(source.kind, obj(source.status));
  if (isPlainObject(status.address) && typeof status.address.url === 'string') {
    status.address = { ...status.address, hostname: hostOf(status.address.url) };
  }
  return { ...source, status };
}

/** Status.ConvertTo of knative.dev/pkg: Ready and Succeeded always, other conditions only when the kind owns them. */
function filterConditions(kind: string, status: Json): Json {
  if (!Array.isArray(status.conditions)) return { ...status };
  const own = CONDITIONS[kind] ?? [];
  const conditions = list(status.conditions).filter(
    (c) => c.type === 'Ready' || c.type === 'Succeeded' || own.includes(String(c.type)),
  );
  return { ...status, conditions };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
