/**
 * create (POST), update (PUT, optimistic concurrency on metadata.resourceVersion), patch (merge,
 * JSON, strategic for built-in kinds, apply as merge), delete and deletecollection; on the main
 * resource or its `status` subresource (which only changes status). `dryRun=All` answers as if
 * done and stores nothing.
 */
import { alreadyExists, badRequest, conflict, invalid, notFound } from './api-error.js';
import { contentTypeOf, parseJsonBody, readBody, sendJson } from './http-io.js';
import { deepCopy, isPlainObject, type KubeObject } from './kube-object.js';
import { kubeTimestamp, newUid } from './object-identity.js';
import { applyPatch } from './patch.js';
import { selectObjects } from './read-handlers.js';
import { isDryRun, type RequestContext } from './request-context.js';
import { apiVersionOf, type ResourceType } from './resource-registry.js';

const BUILT_IN_GROUPS = new Set([
  '',
  'apps',
  'batch',
  'policy',
  'coordination.k8s.io',
  'events.k8s.io',
  'rbac.authorization.k8s.io',
  'networking.k8s.io',
]);

export async function handleCreate(ctx: RequestContext): Promise<void> {
  const { type, path } = ctx;
  const dryRun = isDryRun(ctx.query);
  const object = checkBody(ctx, parseJsonBody(await readBody(ctx.req)));
  const meta = object.metadata;
  if (!meta.name && typeof meta.generateName === 'string' && meta.generateName)
    meta.name = `${meta.generateName}${randomSuffix()}`;
  if (!meta.name) throw invalid(type.kind, type.group, '', 'name or generateName is required', 'metadata.name');
  if (meta.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
  if (ctx.store.getIn(type, path.namespace, meta.name)) throw alreadyExists(type.plural, type.group, meta.name);
  meta.uid = newUid();
  meta.creationTimestamp = kubeTimestamp();
  meta.generation = 1;
  delete meta.deletionTimestamp;
  sendJson(ctx.res, 201, dryRun ? object : ctx.store.upsert(object));
}

export async function handleUpdate(ctx: RequestContext): Promise<void> {
  const { type, path } = ctx;
  const dryRun = isDryRun(ctx.query);
  const body = checkBody(ctx, parseJsonBody(await readBody(ctx.req)));
  if (body.metadata.name !== path.name) {
    throw invalid(
      type.kind,
      type.group,
      path.name!,
      `the name of the object (${body.metadata.name || '<empty>'}) does not match the name on the URL (${path.name})`,
      'metadata.name',
    );
  }
  const current = ctx.store.getIn(type, path.namespace, path.name!);
  if (!current) throw notFound(type.plural, type.group, path.name!);
  const requestedVersion = body.metadata.resourceVersion;
  if (requestedVersion && requestedVersion !== current.metadata.resourceVersion)
    throw conflict(type.plural, type.group, path.name!);
  save(ctx, current, body, dryRun);
}

export async function handlePatch(ctx: RequestContext): Promise<void> {
  const { type, path } = ctx;
  const dryRun = isDryRun(ctx.query);
  const text = await readBody(ctx.req);
  const current = ctx.store.getIn(type, path.namespace, path.name!);
  if (!current) throw notFound(type.plural, type.group, path.name!);
  const patched = applyPatch(current, contentTypeOf(ctx.req), text, {
    strategicAllowed: BUILT_IN_GROUPS.has(type.group),
  });
  if (!isPlainObject(patched) || !isPlainObject(patched.metadata))
    throw invalid(type.kind, type.group, path.name!, 'the patched object is not a Kubernetes object');
  const object = patched as KubeObject;
  if (object.metadata.name !== path.name)
    throw invalid(type.kind, type.group, path.name!, 'field is immutable', 'metadata.name');
  if (object.apiVersion !== current.apiVersion || object.kind !== current.kind)
    throw invalid(type.kind, type.group, path.name!, 'apiVersion and kind cannot be patched', 'kind');
  const requestedVersion = object.metadata.resourceVersion;
  if (requestedVersion && requestedVersion !== current.metadata.resourceVersion)
    throw conflict(type.plural, type.group, path.name!);
  save(ctx, current, object, dryRun);
}

export async function handleDelete(ctx: RequestContext): Promise<void> {
  const { type, path } = ctx;
  const options = await readDeleteOptions(ctx);
  const dryRun = isDryRun(ctx.query) || (Array.isArray(options.dryRun) && options.dryRun.includes('All'));
  const current = ctx.store.getIn(type, path.namespace, path.name!);
  if (!current) throw notFound(type.plural, type.group, path.name!);
  const preconditions = isPlainObject(options.preconditions) ? options.preconditions : {};
  if (
    typeof preconditions.resourceVersion === 'string' &&
    preconditions.resourceVersion !== current.metadata.resourceVersion
  ) {
    throw conflict(type.plural, type.group, path.name!);
  }
  if (typeof preconditions.uid === 'string' && preconditions.uid !== current.metadata.uid)
    throw conflict(type.plural, type.group, path.name!);
  sendJson(ctx.res, 200, dryRun ? current : ctx.store.deleteIn(type, path.namespace, path.name!));
}

export async function handleDeleteCollection(ctx: RequestContext): Promise<void> {
  await readDeleteOptions(ctx);
  const dryRun = isDryRun(ctx.query);
  const items = selectObjects(ctx);
  const deleted = dryRun
    ? items
    : items.map((o) => ctx.store.deleteIn(ctx.type, o.metadata.namespace, o.metadata.name)!);
  sendJson(ctx.res, 200, {
    apiVersion: apiVersionOf(ctx.type),
    kind: `${ctx.type.kind}List`,
    metadata: { resourceVersion: ctx.store.resourceVersion },
    items: deleted,
  });
}

/** Stores (or, dry run, only answers with) `next` in place of `current`, keeping what a write may not change. */
function save(ctx: RequestContext, current: KubeObject, next: KubeObject, dryRun: boolean): void {
  let object: KubeObject;
  if (ctx.path.subresource === 'status') {
    object = deepCopy(current);
    if (next.status === undefined) delete object.status;
    else object.status = next.status;
  } else {
    object = deepCopy(next);
    if (ctx.type.subresources.includes('status')) {
      if (current.status === undefined) delete object.status;
      else object.status = current.status;
    }
  }
  object.metadata.namespace = current.metadata.namespace;
  object.metadata.uid = current.metadata.uid;
  object.metadata.creationTimestamp = current.metadata.creationTimestamp;
  if (dryRun) {
    sendJson(ctx.res, 200, object);
    return;
  }
  sendJson(ctx.res, 200, ctx.store.upsert(object));
}

/** The body as an object of the request's type and namespace (apiVersion/kind filled in when absent). */
function checkBody(ctx: RequestContext, body: unknown): KubeObject {
  const { type, path } = ctx;
  if (!isPlainObject(body)) throw invalid(type.kind, type.group, path.name ?? '', 'the body must be a JSON object');
  const object = body as KubeObject;
  const expected = apiVersionOf(type);
  object.apiVersion ??= expected;
  object.kind ??= type.kind;
  if (object.apiVersion !== expected)
    throw badRequest(
      `the API version in the data (${object.apiVersion}) does not match the expected API version (${expected})`,
    );
  if (object.kind !== type.kind)
    throw badRequest(`the kind in the data (${object.kind}) does not match the expected kind (${type.kind})`);
  if (!isPlainObject(object.metadata)) object.metadata = { name: '' };
  object.metadata.name ??= '';
  checkNamespace(type, object, path.namespace);
  return object;
}

function checkNamespace(type: ResourceType, object: KubeObject, namespace: string | undefined): void {
  if (!type.namespaced) {
    delete object.metadata.namespace;
    return;
  }
  if (object.metadata.namespace && object.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  object.metadata.namespace = namespace!;
}

async function readDeleteOptions(ctx: RequestContext): Promise<Record<string, unknown>> {
  const text = await readBody(ctx.req);
  if (!text.trim()) return {};
  const options = parseJsonBody(text);
  return isPlainObject(options) ? options : {};
}

function randomSuffix(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return Array.from({ length: 5 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
}
