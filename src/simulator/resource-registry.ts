/**
 * The kinds the simulated API server knows: plural, singular, kind, group, version, scope,
 * short names, verbs and subresources. Well-known kinds are always served; kinds that only
 * appear in a snapshot (or are upserted later) are added on the fly.
 */
export interface ResourceType {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  verbs: string[];
  /** Subresources served under NAME/…: "status", "log". */
  subresources: string[];
  categories?: string[];
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

interface Spec {
  plural: string;
  kind: string;
  namespaced?: boolean;
  shortNames?: string[];
  status?: boolean;
  subresources?: string[];
  verbs?: string[];
  categories?: string[];
}

function define(group: string, version: string, specs: Spec[]): ResourceType[] {
  return specs.map((s) => ({
    group,
    version,
    plural: s.plural,
    singular: s.kind.toLowerCase(),
    kind: s.kind,
    namespaced: s.namespaced ?? true,
    shortNames: s.shortNames ?? [],
    verbs: s.verbs ?? ALL_VERBS,
    subresources: [...(s.status ? ['status'] : []), ...(s.subresources ?? [])],
    ...(s.categories ? { categories: s.categories } : {}),
  }));
}

const inferenceService: Spec = { plural: 'inferenceservices', kind: 'InferenceService', shortNames: ['isvc'], status: true, categories: ['all'] };
const istioNetworking: Spec[] = [
  { plural: 'gateways', kind: 'Gateway', shortNames: ['gw'] },
  { plural: 'virtualservices', kind: 'VirtualService', shortNames: ['vs'] },
  { plural: 'destinationrules', kind: 'DestinationRule', shortNames: ['dr'] },
];

export const WELL_KNOWN_RESOURCES: readonly ResourceType[] = [
  ...define('', 'v1', [
    { plural: 'pods', kind: 'Pod', shortNames: ['po'], status: true, subresources: ['log'], categories: ['all'] },
    { plural: 'events', kind: 'Event', shortNames: ['ev'] },
    { plural: 'configmaps', kind: 'ConfigMap', shortNames: ['cm'] },
    { plural: 'services', kind: 'Service', shortNames: ['svc'], status: true, categories: ['all'] },
    { plural: 'endpoints', kind: 'Endpoints', shortNames: ['ep'] },
    { plural: 'namespaces', kind: 'Namespace', shortNames: ['ns'], namespaced: false, status: true },
    { plural: 'secrets', kind: 'Secret' },
    { plural: 'serviceaccounts', kind: 'ServiceAccount', shortNames: ['sa'] },
    { plural: 'resourcequotas', kind: 'ResourceQuota', shortNames: ['quota'], status: true },
    { plural: 'limitranges', kind: 'LimitRange', shortNames: ['limits'] },
    { plural: 'nodes', kind: 'Node', shortNames: ['no'], namespaced: false, status: true },
    { plural: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', shortNames: ['pvc'], status: true },
  ]),
  ...define('apps', 'v1', [
    { plural: 'deployments', kind: 'Deployment', shortNames: ['deploy'], status: true, categories: ['all'] },
    { plural: 'replicasets', kind: 'ReplicaSet', shortNames: ['rs'], status: true, categories: ['all'] },
    { plural: 'statefulsets', kind: 'StatefulSet', shortNames: ['sts'], status: true, categories: ['all'] },
  ]),
  ...define('coordination.k8s.io', 'v1', [{ plural: 'leases', kind: 'Lease' }]),
  ...define('events.k8s.io', 'v1', [{ plural: 'events', kind: 'Event', shortNames: ['ev'] }]),
  ...define('serving.kserve.io', 'v1beta1', [inferenceService]),
  ...define('serving.kserve.io', 'v1alpha1', [
    { plural: 'servingruntimes', kind: 'ServingRuntime', status: true },
    { plural: 'clusterservingruntimes', kind: 'ClusterServingRuntime', namespaced: false, status: true },
    { plural: 'inferencegraphs', kind: 'InferenceGraph', shortNames: ['ig'], status: true },
    { plural: 'trainedmodels', kind: 'TrainedModel', shortNames: ['tm'], status: true },
  ]),
  ...define('serving.kubeflow.org', 'v1beta1', [inferenceService]),
  ...define('serving.kubeflow.org', 'v1alpha2', [inferenceService]),
  ...define('serving.knative.dev', 'v1', [
    { plural: 'services', kind: 'Service', shortNames: ['kservice', 'ksvc'], status: true, categories: ['all', 'knative', 'serving'] },
    { plural: 'configurations', kind: 'Configuration', shortNames: ['config', 'cfg'], status: true, categories: ['all', 'knative', 'serving'] },
    { plural: 'revisions', kind: 'Revision', shortNames: ['rev'], status: true, categories: ['all', 'knative', 'serving'] },
    { plural: 'routes', kind: 'Route', shortNames: ['rt'], status: true, categories: ['all', 'knative', 'serving'] },
  ]),
  ...define('networking.istio.io', 'v1beta1', istioNetworking),
  ...define('networking.istio.io', 'v1alpha3', istioNetworking),
  ...define('networking.istio.io', 'v1', istioNetworking),
  ...define('security.istio.io', 'v1beta1', [
    { plural: 'authorizationpolicies', kind: 'AuthorizationPolicy', shortNames: ['ap'] },
    { plural: 'peerauthentications', kind: 'PeerAuthentication', shortNames: ['pa'] },
  ]),
  ...define('rbac.istio.io', 'v1alpha1', [
    { plural: 'clusterrbacconfigs', kind: 'ClusterRbacConfig', namespaced: false },
    { plural: 'serviceroles', kind: 'ServiceRole' },
    { plural: 'servicerolebindings', kind: 'ServiceRoleBinding' },
  ]),
  ...define('rbac.authorization.k8s.io', 'v1', [
    { plural: 'roles', kind: 'Role' },
    { plural: 'rolebindings', kind: 'RoleBinding' },
    { plural: 'clusterroles', kind: 'ClusterRole', namespaced: false },
    { plural: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
  ]),
];

/** "v1" → {group:"", version:"v1"}; "serving.kserve.io/v1beta1" → {group, version}. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function apiVersionOf(type: Pick<ResourceType, 'group' | 'version'>): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

/** The plural kube would guess for a kind: lowercase + "s" (y → ies, s/x/ch/sh → es). */
export function guessPlural(kind: string): string {
  const lower = kind.toLowerCase();
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  return `${lower}s`;
}

/**
 * API versions that a real cluster serves for the same stored objects without changing their
 * schema (Istio's CRDs serve v1alpha3, v1beta1 and v1 side by side): an object stored under one of
 * them is served under all. The first version is the storage version. Versions whose schemas differ
 * (InferenceService v1alpha2 and v1beta1) are not listed: those are different objects here.
 */
const EQUIVALENT_VERSIONS: Readonly<Record<string, readonly string[]>> = {
  'networking.istio.io': ['v1beta1', 'v1alpha3', 'v1'],
  'security.istio.io': ['v1beta1', 'v1'],
};

/** The version objects of this group/version are stored under. */
export function storageVersionOf(group: string, version: string): string {
  const versions = EQUIVALENT_VERSIONS[group];
  return versions?.includes(version) ? versions[0]! : version;
}

export class ResourceRegistry {
  private readonly types: ResourceType[] = [];

  constructor(initial: readonly ResourceType[] = WELL_KNOWN_RESOURCES) {
    for (const t of initial) this.types.push({ ...t, shortNames: [...t.shortNames], verbs: [...t.verbs], subresources: [...t.subresources] });
  }

  all(): readonly ResourceType[] {
    return this.types;
  }

  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.find((t) => t.group === group && t.version === version && t.plural === plural);
  }

  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    const { group, version } = splitApiVersion(apiVersion);
    return this.types.find((t) => t.group === group && t.version === version && t.kind === kind);
  }

  /** The type serving objects of this apiVersion/kind, registered (namespaced unless told) when unknown. */
  ensure(apiVersion: string, kind: string, namespaced = true): ResourceType {
    const known = this.byKind(apiVersion, kind);
    if (known) return known;
    const { group, version } = splitApiVersion(apiVersion);
    const sameKindElsewhere = this.types.find((t) => t.group === group && t.kind === kind);
    const type: ResourceType = {
      group,
      version,
      plural: sameKindElsewhere?.plural ?? guessPlural(kind),
      singular: kind.toLowerCase(),
      kind,
      namespaced: sameKindElsewhere?.namespaced ?? namespaced,
      shortNames: [],
      verbs: [...ALL_VERBS],
      subresources: ['status'],
    };
    this.types.push(type);
    return type;
  }

  /** Groups with their versions, in registration order (the first version is the preferred one). */
  groups(): { name: string; versions: string[] }[] {
    const groups: { name: string; versions: string[] }[] = [];
    for (const t of this.types) {
      let g = groups.find((x) => x.name === t.group);
      if (!g) groups.push((g = { name: t.group, versions: [] }));
      if (!g.versions.includes(t.version)) g.versions.push(t.version);
    }
    return groups;
  }
}
