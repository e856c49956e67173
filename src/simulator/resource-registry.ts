/**
 * The kinds the simulated API server serves, from the cluster profile (the releases the snapshot's
 * cluster runs): one ResourceType per served group/version/plural, grouped into families (one
 * object served at several versions, or one type per version for built-ins). Kinds the catalog
 * does not know are added when an object of them arrives (`ensure`), and so is a catalogued
 * product no object had installed yet (tests upsert freely into a running simulator).
 */
import {
  installedKinds,
  resolveClusterProfile,
  type ClusterProfile,
  type InstalledComponents,
  type InstalledKind,
} from './api-catalog/cluster-profile.js';
import type { ConversionKind, ProductId } from './api-catalog/catalog-kind.js';
import { chooseRelease } from './api-catalog/choose-release.js';
import { compareKubeVersions } from './api-catalog/kube-version-order.js';
import { productOfGroup } from './api-catalog/products.js';

/** One kind in one API group: the versions it is served at share its objects (unless `separate`). */
export interface ResourceFamily {
  group: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  conversion: ConversionKind;
  /** Served versions, preferred first; objects are kept at the first. */
  versions: string[];
}

export interface ResourceType {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  verbs: string[];
  /** Subresources served under NAME/…: "status", "log", "scale". */
  subresources: string[];
  categories?: string[];
  family: ResourceFamily;
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** kube-apiserver's order of its built-in groups in /apis; CRD groups follow in alphabetical order. */
const BUILT_IN_GROUP_ORDER = [
  '',
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'extensions',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
];

/** "v1" → {group:"", version:"v1"}; "serving.kserve.io/v1beta1" → {group, version}. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
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

export class ResourceRegistry {
  private readonly families: ResourceFamily[] = [];
  private readonly types: ResourceType[] = [];
  /** Release of each installed product ("kubernetes" always). */
  readonly releases: Partial<Record<ProductId, string>>;
  /** Optional components installed, by product (KServe's `llmisvc`). */
  private readonly components: Partial<Record<ProductId, string[]>> = {};

  /** Default: a bare cluster of the default Kubernetes release (products arrive with their objects). */
  constructor(profile: ClusterProfile = resolveClusterProfile([])) {
    this.releases = { ...profile.releases };
    for (const [id, list] of Object.entries(profile.components)) this.components[id as ProductId] = [...list];
    for (const kind of profile.kinds) this.add(kind);
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

  /** The type serving objects of this apiVersion/kind, installed (namespaced unless told) when not served yet. */
  ensure(apiVersion: string, kind: string, namespaced = true): ResourceType {
    const known = this.byKind(apiVersion, kind);
    if (known) return known;
    const { group, version } = splitApiVersion(apiVersion);
    const product = productOfGroup(group);
    if (product) {
      const component = product.kinds.find((k) => k.group === group && k.kind === kind)?.component;
      const release = this.releases[product.id];
      if (release === undefined) {
        const chosen = chooseRelease(product, [{ group, version, kind, where: '' }]);
        this.releases[product.id] = chosen;
        const components: InstalledComponents = component ? { [product.id]: [component] } : {};
        if (component) this.components[product.id] = [component];
        for (const installed of installedKinds({ [product.id]: chosen }, undefined, components)) this.add(installed);
      } else if (component && !this.components[product.id]?.includes(component)) {
        // an object of an optional component the profile left out (KServe's LLMInferenceService): install it
        this.components[product.id] = [...(this.components[product.id] ?? []), component];
        for (const installed of installedKinds({ [product.id]: release }, undefined, { [product.id]: [component] }))
          if (installed.component === component) this.add(installed);
      }
      const installedNow = this.byKind(apiVersion, kind);
      if (installedNow) return installedNow;
    }
    const family = this.families.find((f) => f.group === group && f.kind === kind);
    if (family) return this.addVersion(family, version);
    const sibling = this.types.find((t) => t.group === group && t.kind === kind);
    return this.add({
      group,
      kind,
      plural: sibling?.plural ?? guessPlural(kind),
      namespaced: sibling?.namespaced ?? namespaced,
      shortNames: [],
      subresources: ['status'],
      versions: [version],
      conversion: 'none',
      product: product?.id ?? 'kubernetes',
    });
  }

  /** Groups with their versions, in discovery order (preferred version first). */
  groups(): { name: string; versions: string[] }[] {
    const names = [...new Set(this.types.map((t) => t.group))].sort(compareGroups);
    return names.map((name) => ({
      name,
      versions: [...new Set(this.types.filter((t) => t.group === name).map((t) => t.version))].sort(
        compareKubeVersions,
      ),
    }));
  }

  private add(kind: InstalledKind): ResourceType {
    const family: ResourceFamily = {
      group: kind.group,
      kind: kind.kind,
      plural: kind.plural,
      namespaced: kind.namespaced,
      conversion: kind.conversion,
      versions: [],
    };
    const separate = kind.conversion === 'separate';
    let first: ResourceType | undefined;
    for (const version of kind.versions) {
      const own = separate ? { ...family, versions: [version] } : family;
      if (separate) this.families.push(own);
      else if (!family.versions.includes(version)) family.versions.push(version);
      const type: ResourceType = {
        group: kind.group,
        version,
        plural: kind.plural,
        singular: kind.kind.toLowerCase(),
        kind: kind.kind,
        namespaced: kind.namespaced,
        shortNames: [...kind.shortNames],
        verbs: [...(kind.verbs ?? ALL_VERBS)],
        subresources: [...kind.subresources],
        ...(kind.categories ? { categories: [...kind.categories] } : {}),
        family: own,
      };
      this.types.push(type);
      first ??= type;
    }
    if (!separate) this.families.push(family);
    return first!;
  }

  private addVersion(family: ResourceFamily, version: string): ResourceType {
    const sibling = this.types.find((t) => t.family === family)!;
    family.versions = [...family.versions, version].sort(compareKubeVersions);
    const type: ResourceType = {
      ...sibling,
      version,
      shortNames: [...sibling.shortNames],
      verbs: [...sibling.verbs],
      subresources: [...sibling.subresources],
    };
    this.types.push(type);
    return type;
  }
}

function compareGroups(a: string, b: string): number {
  const ia = BUILT_IN_GROUP_ORDER.indexOf(a);
  const ib = BUILT_IN_GROUP_ORDER.indexOf(b);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
  return a.localeCompare(b);
}
