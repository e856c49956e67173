/**
 * KFServing's InferenceService conversion webhook (0.5 and 0.6: v1alpha2 <-> v1beta1, the storage
 * version), field for field as `pkg/apis/serving/v1alpha2/inferenceservice_conversion.go` does it:
 * only the default endpoint converts (a v1alpha2 canary endpoint is dropped, its traffic split
 * becomes the predictor's canaryTrafficPercent), frameworks keep storageUri / runtimeVersion /
 * resources, a custom container becomes the component's `containers`, parallelism maps to
 * containerConcurrency. Reading v1beta1 as v1alpha2 maps status.components to status.default
 * (name = latestCreatedRevision, host from the url) and keeps url, address and conditions.
 *
 * The webhook drops status on the way to v1beta1 (the controller rewrites it at once); a
 * snapshot has no controller, so its v1alpha2 status is carried over as the inverse of the read
 * mapping. Zero values the Go structs would print ("runtimeVersion": "", "resources": {}) are omitted.
 */
import { isPlainObject, type KubeObject } from '../kube-object.js';

type Json = Record<string, unknown>;

const FRAMEWORKS = ['tensorflow', 'sklearn', 'pmml', 'xgboost', 'lightgbm', 'triton', 'onnx', 'pytorch'] as const;
const COMPONENTS = ['predictor', 'explainer', 'transformer'] as const;

const obj = (value: unknown): Json => (isPlainObject(value) ? value : {});
/** Go's `omitempty`: no key for a missing value, "", 0 or an empty object. */
const nonEmpty = (key: string, value: unknown): Json =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === 0 ||
  (isPlainObject(value) && Object.keys(value).length === 0)
    ? {}
    : { [key]: value };
const defined = (key: string, value: unknown): Json => (value === undefined || value === null ? {} : { [key]: value });

export function kfservingToV1beta1(source: KubeObject): KubeObject {
  const spec = obj(source.spec);
  const endpoint = obj(spec.default);
  const sink: KubeObject = { ...source, apiVersion: 'serving.kubeflow.org/v1beta1', spec: {} };
  const out = sink.spec as Json;
  out.predictor = predictorToV1beta1(obj(endpoint.predictor), spec.canaryTrafficPercent);
  const transformer = obj(endpoint.transformer);
  if (isPlainObject(transformer.custom)) out.transformer = customComponentToV1beta1(transformer);
  const explainer = explainerToV1beta1(obj(endpoint.explainer));
  if (explainer) out.explainer = explainer;
  if (source.status !== undefined) sink.status = statusToV1beta1(obj(source.status));
  return sink;
}

function predictorToV1beta1(predictor: Json, canaryTrafficPercent: unknown): Json {
  const out: Json = {};
  const framework = FRAMEWORKS.find((f) => isPlainObject(predictor[f]));
  if (framework) {
    const f = obj(predictor[framework]);
    out[framework] = {
      ...(framework === 'pytorch' ? nonEmpty('modelClassName', f.modelClassName) : {}),
      ...nonEmpty('runtimeVersion', f.runtimeVersion),
      ...nonEmpty('storageUri', f.storageUri),
      ...nonEmpty('resources', f.resources),
    };
  } else if (isPlainObject(predictor.custom)) out.containers = [obj(predictor.custom).container ?? {}];
  Object.assign(out, defined('minReplicas', predictor.minReplicas), nonEmpty('maxReplicas', predictor.maxReplicas));
  if (typeof predictor.parallelism === 'number' && predictor.parallelism !== 0)
    out.containerConcurrency = predictor.parallelism;
  Object.assign(out, defined('canaryTrafficPercent', canaryTrafficPercent));
  if (isPlainObject(predictor.batcher))
    out.batcher = pick(predictor.batcher, ['maxBatchSize', 'maxLatency', 'timeout']);
  if (isPlainObject(predictor.logger)) out.logger = pick(predictor.logger, ['url', 'mode']);
  return { ...out, ...nonEmpty('serviceAccountName', predictor.serviceAccountName) };
}

function customComponentToV1beta1(component: Json): Json {
  return {
    ...defined('minReplicas', component.minReplicas),
    ...nonEmpty('maxReplicas', component.maxReplicas),
    containers: [obj(component.custom).container ?? {}],
    ...(typeof component.parallelism === 'number' && component.parallelism !== 0
      ? { containerConcurrency: component.parallelism }
      : {}),
  };
}

/** alibi, then aix, then custom: a later one replaces an earlier one, as in the webhook. */
function explainerToV1beta1(explainer: Json): Json | undefined {
  let out: Json | undefined;
  const replicas = {
    ...defined('minReplicas', explainer.minReplicas),
    ...nonEmpty('maxReplicas', explainer.maxReplicas),
  };
  for (const kind of ['alibi', 'aix'] as const) {
    if (!isPlainObject(explainer[kind])) continue;
    const e = obj(explainer[kind]);
    const block = {
      type: e.type,
      ...nonEmpty('storageUri', e.storageUri),
      runtimeVersion: e.runtimeVersion ?? '',
      ...nonEmpty('resources', e.resources),
    };
    out = {
      ...replicas,
      containerConcurrency: typeof explainer.parallelism === 'number' ? explainer.parallelism : 0,
      [kind]: block,
    };
  }
  if (isPlainObject(explainer.custom)) out = customComponentToV1beta1(explainer);
  return out;
}

function statusToV1beta1(status: Json): Json {
  const components: Json = {};
  for (const [component, spec] of Object.entries(obj(status.default))) {
    const s = obj(spec);
    components[component] = {
      ...nonEmpty('latestCreatedRevision', s.name),
      ...(typeof s.host === 'string' && s.host ? { url: `http://${s.host}` } : {}),
    };
  }
  return {
    ...defined('observedGeneration', status.observedGeneration),
    ...defined('conditions', status.conditions),
    ...nonEmpty('url', status.url),
    ...defined('address', status.address),
    ...(Object.keys(components).length ? { components } : {}),
  };
}

export function kfservingToV1alpha2(source: KubeObject): KubeObject {
  const spec = obj(source.spec);
  const predictor = obj(spec.predictor);
  const endpoint: Json = { predictor: predictorToV1alpha2(predictor) };
  const transformer = componentToV1alpha2(obj(spec.transformer), false);
  if (transformer) endpoint.transformer = transformer;
  const explainer = componentToV1alpha2(obj(spec.explainer), true);
  if (explainer) endpoint.explainer = explainer;
  const sink: KubeObject = {
    ...source,
    apiVersion: 'serving.kubeflow.org/v1alpha2',
    spec: { default: endpoint, ...defined('canaryTrafficPercent', predictor.canaryTrafficPercent) },
  };
  if (source.status !== undefined) sink.status = statusToV1alpha2(obj(source.status));
  return sink;
}

function predictorToV1alpha2(predictor: Json): Json {
  const out: Json = {};
  const framework = FRAMEWORKS.find((f) => isPlainObject(predictor[f]));
  const containers = Array.isArray(predictor.containers) ? predictor.containers : [];
  if (framework) {
    const f = obj(predictor[framework]);
    out[framework] = {
      ...nonEmpty('runtimeVersion', f.runtimeVersion),
      ...nonEmpty('resources', f.resources),
      ...nonEmpty('storageUri', f.storageUri),
    };
  } else if (containers.length) {
    Object.assign(out, nonEmpty('serviceAccountName', predictor.serviceAccountName), {
      custom: { container: containers[0] },
    });
  }
  Object.assign(out, replicasToV1alpha2(predictor));
  if (isPlainObject(predictor.batcher))
    out.batcher = pick(predictor.batcher, ['maxBatchSize', 'maxLatency', 'timeout']);
  if (isPlainObject(predictor.logger)) out.logger = pick(predictor.logger, ['url', 'mode']);
  return out;
}

function componentToV1alpha2(component: Json, explainer: boolean): Json | undefined {
  const containers = Array.isArray(component.containers) ? component.containers : [];
  let out: Json | undefined;
  for (const kind of explainer ? (['alibi', 'aix'] as const) : []) {
    if (out || !isPlainObject(component[kind])) continue;
    const e = obj(component[kind]);
    out = {
      [kind]: {
        type: e.type,
        ...nonEmpty('storageUri', e.storageUri),
        ...nonEmpty('runtimeVersion', e.runtimeVersion),
        ...nonEmpty('resources', e.resources),
      },
    };
  }
  if (!out && containers.length) out = { custom: { container: containers[0] } };
  return (
    out && { ...out, ...nonEmpty('serviceAccountName', component.serviceAccountName), ...replicasToV1alpha2(component) }
  );
}

function replicasToV1alpha2(component: Json): Json {
  return {
    ...defined('minReplicas', component.minReplicas),
    ...nonEmpty('maxReplicas', component.maxReplicas),
    ...nonEmpty('parallelism', component.containerConcurrency),
  };
}

function statusToV1alpha2(status: Json): Json {
  const byComponent: Json = {};
  for (const [component, spec] of Object.entries(obj(status.components))) {
    if (!(COMPONENTS as readonly string[]).includes(component)) continue;
    const s = obj(spec);
    byComponent[component] = { ...nonEmpty('name', s.latestCreatedRevision), ...nonEmpty('host', hostOf(s.url)) };
  }
  return {
    ...defined('conditions', status.conditions),
    ...nonEmpty('url', status.url),
    ...defined('address', status.address),
    ...(Object.keys(byComponent).length ? { default: byComponent } : {}),
  };
}

function hostOf(url: unknown): string | undefined {
  if (typeof url !== 'string' || !url) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

function pick(source: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}
