import type { Condition, InferenceServiceObject, KubeObject } from './schemas.js';
import { isObj, type PlainObject as Obj } from '../core/plain-object.js';

/**
 * One reading of an InferenceService across its API versions: serving.kserve.io/v1beta1 and
 * serving.kubeflow.org/v1beta1 (spec.predictor / transformer / explainer, canaryTrafficPercent on
 * the component) and serving.kubeflow.org/v1alpha2 (spec.default / spec.canary endpoints).
 */
export type ComponentName = 'predictor' | 'transformer' | 'explainer';
export const COMPONENT_NAMES: readonly ComponentName[] = ['predictor', 'transformer', 'explainer'];

/** Fields that name a framework / model block inside a v1beta1 or v1alpha2 component spec. */
const FRAMEWORK_KEYS = [
  'model',
  'sklearn',
  'xgboost',
  'tensorflow',
  'pytorch',
  'onnx',
  'triton',
  'tensorrt',
  'lightgbm',
  'pmml',
  'paddle',
  'huggingface',
  'custom',
  'alibi',
  'aix',
  'art',
] as const;

export interface ComponentView {
  name: ComponentName;
  /** v1alpha2 "canary" endpoint. */
  canary: boolean;
  spec: Record<string, unknown>;
  /** Path (from the object root) of the block holding storageUri / resources / image, e.g. ["spec","predictor","sklearn"]. */
  modelPath: string[];
  storageUri?: string;
  image?: string;
  runtime?: string;
  modelFormat?: string;
  memoryLimit?: string;
  memoryRequest?: string;
  /** Path of the `resources` object to patch for a memory change. */
  resourcesPath: string[];
  /** The model block is a container the user wrote (v1beta1 `containers[0]`, v1alpha2 `custom.container`): its image is theirs. */
  userContainer: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function apiGroupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
}

export function conditionOf(
  obj: { status?: { conditions?: Condition[] } } | undefined,
  type: string,
): Condition | undefined {
  return obj?.status?.conditions?.find((c) => c.type === type);
}

export function isReady(obj: { status?: { conditions?: Condition[] } } | undefined): boolean {
  return conditionOf(obj, 'Ready')?.status === 'True';
}

export function formatCondition(c: Condition): string {
  const reason = c.reason ? ` (${c.reason})` : '';
  const message = c.message ? `: ${c.message}` : '';
  return `${c.type}=${c.status ?? 'Unknown'}${reason}${message}`;
}

/**
 * The deployment mode as the cluster spells it: `status.deploymentMode` (what the controller
 * decided) first, then the annotation. KServe 0.16+ names them `Standard` and `Knative`; the
 * legacy `RawDeployment` and `Serverless` still mean the same.
 */
export function deploymentModeName(isvc: KubeObject): string | undefined {
  const statusMode = isObj(isvc.status) ? str((isvc.status as Obj).deploymentMode) : undefined;
  return (
    statusMode ??
    isvc.metadata.annotations?.['serving.kserve.io/deploymentMode'] ??
    isvc.metadata.annotations?.['serving.kubeflow.org/deploymentMode']
  );
}

/** The mode by what it runs: RawDeployment (Standard: Deployments), Serverless (Knative), ModelMesh. */
export function deploymentMode(isvc: KubeObject): 'Serverless' | 'RawDeployment' | 'ModelMesh' {
  const mode = deploymentModeName(isvc)?.toLowerCase();
  if (mode === 'rawdeployment' || mode === 'standard') return 'RawDeployment';
  if (mode === 'modelmesh') return 'ModelMesh';
  return 'Serverless';
}

export function componentsOf(isvc: InferenceServiceObject): ComponentView[] {
  const spec = isObj(isvc.spec) ? isvc.spec : {};
  const out: ComponentView[] = [];
  const endpoints: Array<[Obj | undefined, boolean, string[]]> = isObj(spec.default)
    ? [
        [spec.default as Obj, false, ['spec', 'default']],
        [isObj(spec.canary) ? (spec.canary as Obj) : undefined, true, ['spec', 'canary']],
      ]
    : [[spec, false, ['spec']]];
  for (const [endpoint, canary, base] of endpoints) {
    if (!endpoint) continue;
    for (const name of COMPONENT_NAMES) {
      const component = endpoint[name];
      if (!isObj(component)) continue;
      out.push(viewComponent(name, canary, component, [...base, name]));
    }
  }
  return out;
}

function viewComponent(name: ComponentName, canary: boolean, spec: Obj, path: string[]): ComponentView {
  const key = FRAMEWORK_KEYS.find((k) => isObj(spec[k]));
  let block: Obj = key ? (spec[key] as Obj) : spec;
  let modelPath = key ? [...path, key] : path;
  let resourcesPath = [...modelPath, 'resources'];
  let userContainer = false;
  if (!key && Array.isArray(spec.containers) && isObj(spec.containers[0])) {
    block = spec.containers[0] as Obj;
    modelPath = [...path, 'containers', '0'];
    resourcesPath = [...modelPath, 'resources'];
    userContainer = true;
  } else if (key === 'custom' && isObj(block.container)) {
    // v1alpha2 CustomSpec is {container: v1.Container}: image, env, resources live one level down
    block = block.container as Obj;
    modelPath = [...modelPath, 'container'];
    resourcesPath = [...modelPath, 'resources'];
    userContainer = true;
  }
  const resources = isObj(block.resources) ? (block.resources as Obj) : {};
  const limits = isObj(resources.limits) ? (resources.limits as Obj) : {};
  const requests = isObj(resources.requests) ? (resources.requests as Obj) : {};
  const env = Array.isArray(block.env) ? (block.env as unknown[]).filter(isObj) : [];
  const envStorage = str(env.find((e) => e.name === 'STORAGE_URI')?.value);
  const format = isObj(block.modelFormat)
    ? str((block.modelFormat as Obj).name)
    : key && key !== 'model' && key !== 'custom'
      ? key
      : undefined;
  return {
    name,
    canary,
    spec,
    modelPath,
    storageUri: str(block.storageUri) ?? str(block.storage_uri) ?? envStorage,
    image: str(block.image) ?? str(block.runtimeVersion),
    runtime: str(block.runtime),
    modelFormat: format,
    memoryLimit: str(limits.memory) ?? (typeof limits.memory === 'number' ? String(limits.memory) : undefined),
    memoryRequest: str(requests.memory),
    resourcesPath,
    userContainer,
  };
}

/** canaryTrafficPercent (v1beta1: on the predictor; v1alpha2: on the spec). */
export function canaryTrafficPercent(isvc: InferenceServiceObject): number | undefined {
  const spec = isObj(isvc.spec) ? isvc.spec : {};
  const onSpec = spec.canaryTrafficPercent;
  if (typeof onSpec === 'number') return onSpec;
  const predictor = isObj(spec.predictor) ? (spec.predictor as Obj) : undefined;
  return typeof predictor?.canaryTrafficPercent === 'number' ? predictor.canaryTrafficPercent : undefined;
}

export function isvcUrl(isvc: InferenceServiceObject): string | undefined {
  return isvc.status?.url ?? isvc.status?.address?.url;
}

/** A ref string "Kind namespace/name" for evidence and subjects. */
export function refOf(kind: string, namespace: string | undefined, name: string): string {
  return namespace ? `${kind} ${namespace}/${name}` : `${kind} ${name}`;
}
