/**
 * What the snapshot's cluster runs: the Kubernetes release and the release of every product
 * installed (stated in cluster.yaml, else inferred from the objects' API groups and versions and
 * the releases their labels and images give away), and the kinds that makes the API server serve,
 * each with its served versions (preferred first) and how they convert. A product no object and
 * no cluster.yaml key mentions is not installed. An optional component of a product (KServe's
 * `llmisvc`) is installed with a stated release, or when an object of one of its kinds is present,
 * and brings the products it runs with (at that release's companions, unless stated). A stated release newer than the catalogue counts
 * as its newest; an older one, and contradictions between cluster.yaml and the objects, are
 * SnapshotErrors naming cluster.yaml and the key.
 */
import { SnapshotError } from '../../snapshot/snapshot-error.js';
import type { ClusterFile } from '../../snapshot/parse-cluster-file.js';
import { isPlainObject } from '../kube-object.js';
import type { CatalogKind, ConversionKind, Product, ProductId } from './catalog-kind.js';
import { chooseRelease, clampToCatalog, servedVersions, unservedEvidence, type Evidence } from './choose-release.js';
import { PRODUCT_NAMES, PRODUCTS, productOfGroup } from './products.js';
import { releaseHints } from './release-hints.js';
import { compareReleases, parseRelease } from './release-version.js';

export interface InstalledKind extends Omit<CatalogKind, 'versions'> {
  product: ProductId;
  /** Served versions, preferred first. */
  versions: string[];
}

/** Optional components installed, by product. */
export type InstalledComponents = Partial<Record<ProductId, readonly string[]>>;

export interface ClusterProfile {
  /** Release of each installed product ("kubernetes" always). */
  releases: Partial<Record<ProductId, string>>;
  components: InstalledComponents;
  kinds: InstalledKind[];
}

export function resolveClusterProfile(
  objects: readonly Record<string, unknown>[],
  cluster: ClusterFile = {},
  clusterFile = 'cluster.yaml',
): ClusterProfile {
  const evidence = evidenceByProduct(objects);
  const hints = releaseHints(objects);
  const allowed = cluster.apiGroups ? allowedGroupVersions(cluster.apiGroups) : undefined;
  if (allowed) checkAllowed(objects, allowed, clusterFile);
  const releases: Partial<Record<ProductId, string>> = {};
  const components: InstalledComponents = {};
  /** Releases companions of an installed component run at (PRODUCTS lists companions after their product). */
  const companionReleases: Partial<Record<ProductId, string>> = {};
  for (const product of PRODUCTS) {
    const stated = cluster[product.id];
    const seen = evidence.get(product.id) ?? [];
    const listed = allowed !== undefined && product.kinds.some((k) => allowed.has(k.group));
    const companion = companionReleases[product.id];
    if (stated !== undefined) releases[product.id] = statedRelease(product, stated, seen, clusterFile);
    else if (seen.length || listed || companion !== undefined || product.id === 'kubernetes')
      releases[product.id] = chooseRelease(product, seen, hints[product.id] ?? companion);
    const release = releases[product.id];
    if (release === undefined) continue;
    const installed = componentsOf(product, release, stated !== undefined, seen);
    if (installed.length) components[product.id] = installed;
    const runsWith = product.companions;
    if (runsWith && installed.includes(runsWith.component))
      Object.assign(companionReleases, runsWith.releases[release] ?? {});
  }
  return { releases, components, kinds: installedKinds(releases, allowed, components) };
}

/** The optional components installed: every one the release has when stated, else those an object shows. */
function componentsOf(product: Product, release: string, stated: boolean, seen: readonly Evidence[]): string[] {
  const all = [
    ...new Set(product.kinds.flatMap((k) => (k.component && servedVersions(k, release).length ? [k.component] : []))),
  ];
  if (stated) return all;
  return all.filter((c) => seen.some((e) => product.kinds.some((k) => k.component === c && k.kind === e.kind)));
}

/**
 * The kinds a product release installs (optionally only the listed groups / versions); kinds of an
 * optional component only when `components` names it.
 */
export function installedKinds(
  releases: Partial<Record<ProductId, string>>,
  allowed?: Map<string, Set<string> | 'all'>,
  components: InstalledComponents = {},
): InstalledKind[] {
  const kinds: InstalledKind[] = [];
  for (const product of PRODUCTS) {
    const release = releases[product.id];
    if (release === undefined) continue;
    for (const kind of product.kinds) {
      if (kind.component && !components[product.id]?.includes(kind.component)) continue;
      const filter = product.id === 'kubernetes' ? 'all' : allowed ? allowed.get(kind.group) : 'all';
      const versions = servedVersions(kind, release).filter((v) => filter === 'all' || filter?.has(v));
      if (versions.length)
        kinds.push({
          ...kind,
          product: product.id,
          versions,
          conversion: conversionAt(product, kind.conversion, release),
        });
    }
  }
  return kinds;
}

function conversionAt(product: Product, conversion: ConversionKind, release: string): ConversionKind {
  const noneUntil = product.conversionNoneUntil;
  if (conversion === 'separate' || noneUntil === undefined) return conversion;
  return compareReleases(parseRelease(release)!, parseRelease(noneUntil)!) <= 0 ? 'none' : conversion;
}

/**
 * One object per apiVersion and kind, by the id of the product owning its group; with
 * `includeUnknown`, an uncatalogued group is its own key.
 */
function evidenceByProduct(
  objects: readonly Record<string, unknown>[],
  includeUnknown = false,
): Map<string, Evidence[]> {
  const byProduct = new Map<string, Evidence[]>();
  const seen = new Set<string>();
  for (const object of objects) {
    if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') continue;
    const [group, version] = object.apiVersion.includes('/')
      ? object.apiVersion.split('/', 2)
      : ['', object.apiVersion];
    const product = productOfGroup(group!)?.id ?? (includeUnknown ? `group:${group}` : undefined);
    if (!product || seen.has(`${object.apiVersion} ${object.kind}`)) continue;
    seen.add(`${object.apiVersion} ${object.kind}`);
    const meta = isPlainObject(object.metadata) ? object.metadata : {};
    const where = `${object.kind} ${typeof meta.namespace === 'string' ? `${meta.namespace}/` : ''}${String(meta.name)}`;
    const list = byProduct.get(product) ?? [];
    byProduct.set(product, list);
    list.push({ group: group!, version: version!, kind: object.kind, where });
  }
  return byProduct;
}

function statedRelease(product: Product, stated: string, evidence: readonly Evidence[], clusterFile: string): string {
  const parsed = parseRelease(stated)!;
  const tooOld = compareReleases(parsed, parseRelease(product.releases[0]!)!) < 0;
  const release = tooOld ? undefined : clampToCatalog(product, stated);
  if (!release) {
    throw new SnapshotError(
      `\`${product.id}\`: ${stated} is not a ${PRODUCT_NAMES[product.id]} release the simulator knows (${product.releases[0]} to ${product.releases.at(-1)})`,
      clusterFile,
    );
  }
  const unserved = unservedEvidence(product, release, evidence);
  if (unserved) {
    throw new SnapshotError(
      `\`${product.id}\`: ${PRODUCT_NAMES[product.id]} ${release} does not serve ${unserved.group}/${unserved.version} ${unserved.kind} (${unserved.where} in objects.yaml)`,
      clusterFile,
    );
  }
  return release;
}

/** apiGroups entries: "group" (every version the release serves) or "group/version". */
function allowedGroupVersions(entries: readonly string[]): Map<string, Set<string> | 'all'> {
  const allowed = new Map<string, Set<string> | 'all'>();
  for (const entry of entries) {
    const [group = '', version] = entry.split('/', 2);
    const current = allowed.get(group);
    if (version === undefined || current === 'all') allowed.set(group, 'all');
    else allowed.set(group, new Set([...(current ?? []), version]));
  }
  return allowed;
}

/** With an apiGroups list, every object outside the built-in groups must be in a listed group / version. */
function checkAllowed(
  objects: readonly Record<string, unknown>[],
  allowed: Map<string, Set<string> | 'all'>,
  clusterFile: string,
): void {
  for (const [product, list] of evidenceByProduct(objects, true)) {
    if (product === 'kubernetes') continue;
    for (const e of list) {
      const filter = allowed.get(e.group);
      if (filter === 'all' || filter?.has(e.version)) continue;
      throw new SnapshotError(
        `\`apiGroups\`: does not list ${filter ? `${e.group}/${e.version}` : e.group}, which ${e.where} in objects.yaml needs`,
        clusterFile,
      );
    }
  }
}
