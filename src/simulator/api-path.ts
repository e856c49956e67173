/**
 * Parses a Kubernetes API URL path and method into what is asked: group, version, resource,
 * namespace, name, subresource and verb (get, list, watch, create, update, patch, delete,
 * deletecollection), or a discovery document.
 */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface ResourcePath {
  kind: 'resource';
  group: string;
  version: string;
  plural: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  verb: Verb | undefined;
}

export interface DiscoveryPath {
  kind: 'discovery';
  document: 'version' | 'api' | 'apis' | 'group' | 'groupVersion' | 'openapi' | 'openapiV3Index' | 'openapiV3';
  group: string;
  version: string;
}

export type ApiPath = ResourcePath | DiscoveryPath | { kind: 'unknown' };

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export function parseApiPath(method: string, pathname: string, query: URLSearchParams): ApiPath {
  const segments = pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map(safeDecode);
  const [root, ...rest] = segments;
  if (root === 'version' && rest.length === 0) return discovery('version');
  if (root === 'openapi') return openApiPath(rest);
  if (root === 'api') {
    if (rest.length === 0) return discovery('api');
    const [version = '', ...tail] = rest;
    if (tail.length === 0) return discovery('groupVersion', '', version);
    return resourcePath(method, '', version, tail, query);
  }
  if (root === 'apis') {
    if (rest.length === 0) return discovery('apis');
    const [group = '', version, ...tail] = rest;
    if (version === undefined) return discovery('group', group);
    if (tail.length === 0) return discovery('groupVersion', group, version);
    return resourcePath(method, group, version, tail, query);
  }
  return { kind: 'unknown' };
}

/** /openapi/v3 (index), /openapi/v3/api/v1, /openapi/v3/apis/GROUP/VERSION; anything else (v2) is 'openapi'. */
function openApiPath(rest: string[]): DiscoveryPath {
  if (rest[0] !== 'v3') return discovery('openapi');
  if (rest.length === 1) return discovery('openapiV3Index');
  if (rest[1] === 'api' && rest.length === 3) return discovery('openapiV3', '', rest[2]);
  if (rest[1] === 'apis' && rest.length === 4) return discovery('openapiV3', rest[2], rest[3]);
  return discovery('openapi');
}

function discovery(document: DiscoveryPath['document'], group = '', version = ''): DiscoveryPath {
  return { kind: 'discovery', document, group, version };
}

function resourcePath(method: string, group: string, version: string, tail: string[], query: URLSearchParams): ApiPath {
  let watchPrefix = false;
  if (tail[0] === 'watch') {
    watchPrefix = true;
    tail = tail.slice(1);
  }
  let namespace: string | undefined;
  let rest = tail;
  if (tail[0] === 'namespaces' && tail.length >= 3 && !(tail.length === 3 && NAMESPACE_SUBRESOURCES.has(tail[2]!))) {
    namespace = tail[1];
    rest = tail.slice(2);
  }
  if (rest.length === 0 || rest.length > 3) return { kind: 'unknown' };
  const [plural = '', name, subresource] = rest;
  const isWatch = watchPrefix || ['1', 'true'].includes((query.get('watch') ?? '').toLowerCase());
  return {
    kind: 'resource',
    group,
    version,
    plural,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
    verb: verbOf(method, name !== undefined, isWatch),
  };
}

function verbOf(method: string, hasName: boolean, isWatch: boolean): Verb | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (isWatch) return 'watch';
      return hasName ? 'get' : 'list';
    case 'POST':
      return hasName ? undefined : 'create';
    case 'PUT':
      return hasName ? 'update' : undefined;
    case 'PATCH':
      return hasName ? 'patch' : undefined;
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
