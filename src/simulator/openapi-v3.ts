/**
 * /openapi/v3 as kube-apiserver serves it: an index of group versions (`paths` →
 * serverRelativeURL) and, per group version, a document with one path per resource whose PATCH
 * (and POST / PUT) operations carry the group-version-kind extension and the `fieldValidation`
 * query parameter (so kubectl validates on the server instead of downloading /openapi/v2, which
 * is only offered as protobuf and is not served here), and the kinds' schemas.
 */
import { kindSchemas } from './openapi-schemas.js';
import type { ResourceRegistry, ResourceType } from './resource-registry.js';

const WRITE_PARAMETERS = ['dryRun', 'fieldManager', 'fieldValidation'].map((name) => ({
  name,
  in: 'query',
  schema: { type: 'string', uniqueItems: true },
}));

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export function openApiV3Index(registry: ResourceRegistry): Record<string, unknown> {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const g of registry.groups()) {
    for (const version of g.versions) {
      const key = gvPath(g.name, version);
      paths[key] = {
        serverRelativeURL: `/openapi/v3/${key}?hash=${registry.releases.kubernetes}-${g.name || 'core'}-${version}`,
      };
    }
  }
  return { paths };
}

/** The OpenAPI 3 document of one group version, or undefined when it is not served. */
export async function openApiV3Document(
  registry: ResourceRegistry,
  group: string,
  version: string,
): Promise<Record<string, unknown> | undefined> {
  const types = registry.all().filter((t) => t.group === group && t.version === version);
  if (types.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  for (const type of types) Object.assign(paths, resourcePaths(type));
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: `v${registry.releases.kubernetes}.0` },
    paths,
    components: { schemas: await kindSchemas(types) },
  };
}

function resourcePaths(type: ResourceType): Record<string, unknown> {
  const gvk = { 'x-kubernetes-group-version-kind': { group: type.group, version: type.version, kind: type.kind } };
  const base = `/${gvPath(type.group, type.version)}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.plural}`;
  const operation = (action: string, parameters: unknown[] = []): Record<string, unknown> => ({
    'x-kubernetes-action': action,
    ...gvk,
    parameters,
    responses: { '200': { description: 'OK' } },
  });
  return {
    [base]: { get: operation('list'), post: operation('post', WRITE_PARAMETERS) },
    [`${base}/{name}`]: {
      get: operation('get'),
      put: operation('put', WRITE_PARAMETERS),
      patch: operation('patch', WRITE_PARAMETERS),
      delete: operation('delete'),
    },
  };
}
