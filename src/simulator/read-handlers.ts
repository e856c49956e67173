/** get, list (label and field selectors, limit / continue paging, Table output for kubectl) and pod logs. */
import { notFound, pathNotFound } from './api-error.js';
import { sendJson, sendText } from './http-io.js';
import type { KubeObject } from './kube-object.js';
import { listPage } from './list-page.js';
import { parseLogQuery, readPodLog } from './pod-logs.js';
import type { RequestContext } from './request-context.js';
import { apiVersionOf } from './resource-registry.js';
import { fieldSelectorMatcher, labelSelectorMatcher } from './selectors.js';
import { parseIncludeObject, toTable, wantsTable, type TableListMeta } from './table-printer.js';

export function handleGet(ctx: RequestContext): void {
  const { path, type, store } = ctx;
  const object = store.getIn(type, path.namespace, path.name!);
  if (!object) throw notFound(type.plural, type.group, path.name!);
  if (path.subresource === 'log') {
    sendText(ctx.res, 200, readPodLog(object, ctx.snapshot.logs, parseLogQuery(ctx.query)));
    return;
  }
  sendObjects(ctx, object, [object], { resourceVersion: ctx.store.resourceVersion });
}

export function handleList(ctx: RequestContext): void {
  if (ctx.path.subresource) throw pathNotFound();
  const page = listPage(ctx);
  const metadata = {
    resourceVersion: page.resourceVersion,
    ...(page.continue ? { continue: page.continue } : {}),
    ...(page.remainingItemCount !== undefined ? { remainingItemCount: page.remainingItemCount } : {}),
  };
  sendObjects(
    ctx,
    { apiVersion: apiVersionOf(ctx.type), kind: `${ctx.type.kind}List`, metadata, items: page.items },
    page.items,
    metadata,
  );
}

/** The objects of the request's type and namespace that its labelSelector and fieldSelector select. */
export function selectObjects(ctx: RequestContext): KubeObject[] {
  const matchLabels = labelSelectorMatcher(ctx.query.get('labelSelector') ?? undefined);
  const matchFields = fieldSelectorMatcher(ctx.query.get('fieldSelector') ?? undefined);
  return ctx.store.listIn(ctx.type, ctx.path.namespace).filter((o) => matchLabels(o) && matchFields(o));
}

function sendObjects(ctx: RequestContext, body: unknown, rows: KubeObject[], listMeta: TableListMeta): void {
  if (wantsTable(ctx.req.headers.accept)) {
    const table = toTable(ctx.type, rows, {
      ...listMeta,
      includeObject: parseIncludeObject(ctx.query.get('includeObject')),
    });
    sendJson(ctx.res, 200, table);
    return;
  }
  sendJson(ctx.res, 200, body);
}
