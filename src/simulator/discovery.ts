/**
 * Discovery documents as kube-apiserver serves them in legacy (unaggregated) form: /version,
 * /api, /apis, /apis/GROUP and the APIResourceList of each group version, for the API groups the
 * snapshot's cluster has. kubectl asks /api and /apis for aggregated discovery first (see
 * aggregated-discovery.ts); a plain application/json answer makes it fall back to these.
 */
import { apiVersionOf, type ResourceRegistry, type ResourceType } from './resource-registry.js';

/** /version of a Kubernetes release ("1.29" → v1.29.0). */
export function versionInfo(release: string): Record<string, unknown> {
  const [major = '1', minor = '29'] = release.split('.');
  return {
    major,
    minor,
    gitVersion: `v${major}.${minor}.0`,
    gitCommit: '3f7a50f38688eb332e2a1b013678c6435d539ae6',
    gitTreeState: 'clean',
    buildDate: '2023-12-13T08:44:33Z',
    goVersion: 'go1.21.5',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function apiGroupList(registry: ResourceRegistry): Record<string, unknown> {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry
      .groups()
      .filter((g) => g.name !== '')
      .map((g) => apiGroup(g.name, g.versions, false)),
  };
}

/** The APIGroup document of one group, or undefined when the cluster does not have it. */
export function apiGroupDocument(registry: ResourceRegistry, group: string): Record<string, unknown> | undefined {
  const found = registry.groups().find((g) => g.name === group && group !== '');
  return found ? apiGroup(found.name, found.versions, true) : undefined;
}

function apiGroup(name: string, versions: string[], withKind: boolean): Record<string, unknown> {
  const entries = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return {
    ...(withKind ? { kind: 'APIGroup', apiVersion: 'v1' } : {}),
    name,
    versions: entries,
    preferredVersion: entries[0],
  };
}

/** The APIResourceList of a group version, or undefined when it is not served. */
export function apiResourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const types = registry.all().filter((t) => t.group === group && t.version === version);
  if (types.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf({ group, version }),
    resources: types.flatMap(resourceEntries),
  };
}

/** The verbs a subresource takes, as the API server lists them. */
export function subresourceVerbs(subresource: string): string[] {
  return subresource === 'log' ? ['get'] : ['get', 'patch', 'update'];
}

function resourceEntries(type: ResourceType): Record<string, unknown>[] {
  const main = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories ? { categories: type.categories } : {}),
  };
  const subresources = type.subresources.map((sub) => ({
    name: `${type.plural}/${sub}`,
    singularName: '',
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: subresourceVerbs(sub),
  }));
  return [main, ...subresources];
}
