/**
 * Routes one HTTP request: discovery documents, then resource requests (type lookup, scope
 * checks, access.yaml denials, then the verb's handler). Every request is recorded with its final
 * status; every failure is answered with a Status object and never takes the server down.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Snapshot } from '../snapshot/load-snapshot.js';
import { forbidden, isDenied } from './access-rules.js';
import { ApiError, methodNotAllowed, pathNotFound } from './api-error.js';
import { parseApiPath, type DiscoveryPath, type ResourcePath } from './api-path.js';
import { aggregatedContentType, aggregatedDiscovery, aggregatedDiscoveryVersion } from './aggregated-discovery.js';
import { apiGroupDocument, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery.js';
import { sendError, sendJson } from './http-io.js';
import { openApiV3Document, openApiV3Index } from './openapi-v3.js';
import type { ObjectStore } from './object-store.js';
import { handleGet, handleList } from './read-handlers.js';
import type { RequestContext } from './request-context.js';
import { queryRecord, type RecordedRequest } from './request-log.js';
import type { ResourceType } from './resource-registry.js';
import { handleWatch, type WatchRegistry } from './watch-stream.js';
import { handleCreate, handleDelete, handleDeleteCollection, handlePatch, handleUpdate } from './write-handlers.js';

export interface RouterDeps {
  snapshot: Snapshot;
  store: ObjectStore;
  watches: WatchRegistry;
  requests: RecordedRequest[];
  /** Called with each request once it is answered (`simulate --request-log`). */
  onRequest?: (request: RecordedRequest) => void;
  latencyMs: number;
  serverAddress: () => string;
}

export function createRouter(deps: RouterDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    route(deps, req, res).catch((error: unknown) => {
      // Last resort: the handlers already turn failures into Status answers.
      if (!res.headersSent)
        sendError(
          res,
          new ApiError(500, 'InternalError', `internal error: ${String((error as Error)?.message ?? error)}`),
        );
      else res.destroy();
    });
  };
}

async function route(deps: RouterDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const at = Date.now();
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();
  const parsed = parseApiPath(method, url.pathname, url.searchParams);
  const record: RecordedRequest = {
    method,
    path: url.pathname,
    query: queryRecord(url.searchParams),
    verb: 'get',
    group: '',
    version: '',
    resource: '',
    status: 0,
    at,
  };
  if (parsed.kind === 'resource') describeResourceRequest(record, parsed);
  if (deps.latencyMs > 0) await delay(deps.latencyMs);
  try {
    if (parsed.kind === 'discovery') await serveDiscovery(deps, req, parsed, res);
    else if (parsed.kind === 'resource') await serveResource(deps, req, res, parsed, url.searchParams);
    else throw pathNotFound();
  } catch (error) {
    const apiError =
      error instanceof ApiError
        ? error
        : new ApiError(500, 'InternalError', `internal error: ${String((error as Error)?.message ?? error)}`);
    if (!res.headersSent) sendError(res, apiError);
    else res.end();
    if (req.readable) req.resume();
  }
  record.status = res.statusCode;
  record.doneAt = Date.now();
  deps.requests.push(record);
  deps.onRequest?.(record);
}

function describeResourceRequest(record: RecordedRequest, path: ResourcePath): void {
  record.verb = path.verb ?? record.method.toLowerCase();
  record.group = path.group;
  record.version = path.version;
  record.resource = path.subresource ? `${path.plural}/${path.subresource}` : path.plural;
  if (path.namespace !== undefined) record.namespace = path.namespace;
  if (path.name !== undefined) record.name = path.name;
}

async function serveDiscovery(
  deps: RouterDeps,
  req: IncomingMessage,
  path: DiscoveryPath,
  res: ServerResponse,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method);
  const registry = deps.store.registry;
  const kubernetes = registry.releases.kubernetes!;
  const aggregated =
    path.document === 'api' || path.document === 'apis'
      ? aggregatedDiscoveryVersion(req.headers.accept, kubernetes)
      : undefined;
  if (aggregated) {
    sendJson(
      res,
      200,
      aggregatedDiscovery(registry, path.document as 'api' | 'apis', aggregated),
      aggregatedContentType(aggregated),
    );
    return;
  }
  const document = await (async () => {
    switch (path.document) {
      case 'version':
        return versionInfo(kubernetes);
      case 'api':
        return apiVersions(deps.serverAddress());
      case 'apis':
        return apiGroupList(registry);
      case 'group':
        return apiGroupDocument(registry, path.group);
      case 'groupVersion':
        return apiResourceList(registry, path.group, path.version);
      case 'openapiV3Index':
        return openApiV3Index(registry);
      case 'openapiV3':
        return openApiV3Document(registry, path.group, path.version);
      case 'openapi':
        return undefined;
    }
  })();
  if (!document) throw pathNotFound();
  sendJson(res, 200, document);
}

async function serveResource(
  deps: RouterDeps,
  req: IncomingMessage,
  res: ServerResponse,
  path: ResourcePath,
  query: URLSearchParams,
): Promise<void> {
  const type = deps.store.registry.find(path.group, path.version, path.plural);
  if (!type) throw pathNotFound();
  if (!path.verb) throw methodNotAllowed(req.method ?? '');
  checkScope(type, path);
  const resource = path.subresource ? `${path.plural}/${path.subresource}` : path.plural;
  const access = {
    verb: path.verb,
    group: path.group,
    resource,
    ...(path.namespace !== undefined ? { namespace: path.namespace } : {}),
    ...(path.name ? { name: path.name } : {}),
  };
  if (isDenied(deps.snapshot.deny, access)) throw forbidden(access);
  const ctx: RequestContext = {
    req,
    res,
    path,
    type,
    query,
    store: deps.store,
    snapshot: deps.snapshot,
    watches: deps.watches,
  };
  switch (path.verb) {
    case 'get':
      return handleGet(ctx);
    case 'list':
      return handleList(ctx);
    case 'watch':
      return handleWatch(ctx);
    case 'create':
      return handleCreate(ctx);
    case 'update':
      return handleUpdate(ctx);
    case 'patch':
      return handlePatch(ctx);
    case 'delete':
      return handleDelete(ctx);
    case 'deletecollection':
      return handleDeleteCollection(ctx);
  }
}

/** Namespaced kinds need a namespace except to list/watch across all; cluster kinds never take one; subresources must exist. */
function checkScope(type: ResourceType, path: ResourcePath): void {
  if (!type.namespaced && path.namespace !== undefined) throw pathNotFound();
  const acrossNamespaces = path.verb === 'list' || path.verb === 'watch' || path.verb === 'deletecollection';
  if (type.namespaced && path.namespace === undefined && !acrossNamespaces) throw pathNotFound();
  if (path.subresource !== undefined) {
    if (!type.subresources.includes(path.subresource)) throw pathNotFound();
    const allowed = path.subresource === 'log' ? ['get'] : ['get', 'update', 'patch'];
    if (!allowed.includes(path.verb!)) throw methodNotAllowed(path.verb!);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
