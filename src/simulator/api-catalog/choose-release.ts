/**
 * Picks the release of a product that a snapshot's objects point to: among the catalogued
 * releases that serve every catalogued kind at the version the objects use, the hinted release
 * (labels, image tags) if it is one of them; for Kubernetes the one nearest the default; for the
 * others the newest release that reads every object back as it was written (no lossy conversion),
 * else the newest.
 */
import type { CatalogKind, Product } from './catalog-kind.js';
import { compareKubeVersions } from './kube-version-order.js';
import { DEFAULT_KUBERNETES_RELEASE } from './products.js';
import { compareReleases, formatRelease, parseRelease, releaseInRange } from './release-version.js';

export interface Evidence {
  group: string;
  version: string;
  kind: string;
  /** "InferenceService default/sklearn-iris": where the evidence comes from, for messages. */
  where: string;
}

/** The versions of a kind served at a release, preferred first. */
export function servedVersions(kind: CatalogKind, release: string): string[] {
  const r = parseRelease(release)!;
  return kind.versions
    .filter((v) => releaseInRange(r, v.from, v.until))
    .map((v) => v.version)
    .sort(compareKubeVersions);
}

export function catalogKindOf(product: Product, evidence: Pick<Evidence, 'group' | 'kind'>): CatalogKind | undefined {
  return product.kinds.find((k) => k.group === evidence.group && k.kind === evidence.kind);
}

/** Evidence the release cannot serve (a catalogued kind at a version it does not serve). */
export function unservedEvidence(
  product: Product,
  release: string,
  evidence: readonly Evidence[],
): Evidence | undefined {
  return evidence.find((e) => {
    const kind = catalogKindOf(product, e);
    return kind !== undefined && !servedVersions(kind, release).includes(e.version);
  });
}

export function chooseRelease(product: Product, evidence: readonly Evidence[], hint?: string): string {
  const serving = product.releases.filter((r) => !unservedEvidence(product, r, evidence));
  const pool = serving.length ? serving : product.releases;
  const hinted = hint === undefined ? undefined : clampToCatalog(product, hint);
  if (hinted && pool.includes(hinted)) return hinted;
  if (product.id === 'kubernetes') return nearest(pool, DEFAULT_KUBERNETES_RELEASE);
  const lossless = pool.filter((r) => readsBackAsWritten(product, r, evidence));
  return (lossless.length ? lossless : pool).at(-1)!;
}

/** A release beyond the catalogue counts as its newest (or oldest) catalogued release. */
export function clampToCatalog(product: Product, text: string): string | undefined {
  const release = parseRelease(text);
  if (!release) return undefined;
  const first = parseRelease(product.releases[0]!)!;
  const last = parseRelease(product.releases.at(-1)!)!;
  if (compareReleases(release, last) > 0) return formatRelease(last);
  if (compareReleases(release, first) < 0) return formatRelease(first);
  const formatted = formatRelease(release);
  return product.releases.includes(formatted) ? formatted : undefined;
}

function readsBackAsWritten(product: Product, release: string, evidence: readonly Evidence[]): boolean {
  const noneUntil = product.conversionNoneUntil;
  const identity = noneUntil !== undefined && compareReleases(parseRelease(release)!, parseRelease(noneUntil)!) <= 0;
  return evidence.every((e) => {
    const kind = catalogKindOf(product, e);
    if (!kind || kind.conversion === 'none' || kind.conversion === 'separate' || identity) return true;
    return servedVersions(kind, release)[0] === e.version;
  });
}

function nearest(pool: string[], target: string): string {
  const t = parseRelease(target)!;
  const distance = (r: string): number =>
    Math.abs((parseRelease(r)!.major - t.major) * 100 + parseRelease(r)!.minor - t.minor);
  return [...pool].sort((a, b) => distance(a) - distance(b) || compareReleases(parseRelease(b)!, parseRelease(a)!))[0]!;
}
