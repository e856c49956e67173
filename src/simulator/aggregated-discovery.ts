/**
 * Aggregated discovery (apidiscovery.k8s.io): every group, version and resource of /api or /apis
 * in one APIGroupDiscoveryList, which kubectl 1.26+ asks for first. Served as v2beta1 from
 * Kubernetes 1.26 to 1.32 and as v2 from 1.30, only when the Accept header asks for it; the
 * answer's Content-Type names the version, as client-go requires to recognise it.
 */
import { compareReleases, parseRelease } from './api-catalog/release-version.js';
import { subresourceVerbs } from './discovery.js';
import type { ResourceRegistry, ResourceType } from './resource-registry.js';

type DiscoveryVersion = 'v2' | 'v2beta1';

const SERVED: Record<DiscoveryVersion, [string, string]> = { v2: ['1.30', '99.0'], v2beta1: ['1.26', '1.32'] };

/** The aggregated discovery version to answer with, or undefined for the legacy document. */
export function aggregatedDiscoveryVersion(
  accept: string | undefined,
  kubernetesRelease: string,
): DiscoveryVersion | undefined {
  const release = parseRelease(kubernetesRelease);
  if (!accept || !release) return undefined;
  for (const part of accept.split(',')) {
    const params = part.split(';').map((p) => p.trim());
    if (!params.includes('g=apidiscovery.k8s.io') || !params.includes('as=APIGroupDiscoveryList')) continue;
    const version = params.find((p) => p.startsWith('v='))?.slice(2) as DiscoveryVersion | undefined;
    if (!version || !(version in SERVED)) continue;
    const [from, until] = SERVED[version];
    if (compareReleases(release, parseRelease(from)!) >= 0 && compareReleases(release, parseRelease(until)!) <= 0)
      return version;
  }
  return undefined;
}

export function aggregatedContentType(version: DiscoveryVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/** The APIGroupDiscoveryList of the core group (/api) or of every named group (/apis). */
export function aggregatedDiscovery(
  registry: ResourceRegistry,
  root: 'api' | 'apis',
  version: DiscoveryVersion,
): Record<string, unknown> {
  const groups = registry.groups().filter((g) => (root === 'api' ? g.name === '' : g.name !== ''));
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: { ...(g.name ? { name: g.name } : {}), creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        resources: registry
          .all()
          .filter((t) => t.group === g.name && t.version === v)
          .map(resourceDiscovery),
        freshness: 'Current',
      })),
    })),
  };
}

function resourceDiscovery(type: ResourceType): Record<string, unknown> {
  const responseKind = { group: type.group, version: type.version, kind: type.kind };
  return {
    resource: type.plural,
    responseKind,
    scope: type.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: type.singular,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories ? { categories: type.categories } : {}),
    ...(type.subresources.length
      ? {
          subresources: type.subresources.map((sub) => ({
            subresource: sub,
            responseKind,
            verbs: subresourceVerbs(sub),
          })),
        }
      : {}),
  };
}
