/**
 * One page of a list as kube-apiserver's etcd storage serves it: objects in key order
 * (`namespace/name`), at most `limit` of those the selectors match after the continue point,
 * a continue token while keys remain (even when none of them would match), remainingItemCount
 * when no selector filters, and every page of one list read at the first page's
 * resourceVersion. A token whose resourceVersion fell out of the history is 410 Expired, with a
 * fresh token for the rest of the list at the current resourceVersion.
 */
import { ApiError, badRequest } from './api-error.js';
import { decodeContinue, encodeContinue } from './continue-token.js';
import type { KubeObject } from './kube-object.js';
import { servedAs } from './object-store.js';
import type { RequestContext } from './request-context.js';
import { fieldSelectorMatcher, labelSelectorMatcher } from './selectors.js';

export interface ListPage {
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

const EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export function listPage(ctx: RequestContext): ListPage {
  const limit = parseLimit(ctx.query.get('limit'));
  const token = ctx.query.get('continue') ?? '';
  const point = token ? decodeContinue(token) : undefined;
  if (point && (ctx.query.get('resourceVersion') ?? '') !== '')
    throw badRequest('specifying resource version is not allowed when using continue');
  const atRevision = point?.resourceVersion ?? exactRevision(ctx);
  const revision = atRevision ?? Number(ctx.store.resourceVersion);
  // the stored objects, copied and converted only as they are matched and served: a page of 500 out of
  // 20,000 pods costs 500 copies, not 20,000 (etcd reads a range, not the whole prefix)
  const all = ctx.store.storedIn(ctx.type, ctx.path.namespace, atRevision);
  if (all === 'expired') throw expired(ctx, point?.after);
  const keyOf = (o: Pick<KubeObject, 'metadata'>): string =>
    ctx.path.namespace === undefined && o.metadata.namespace
      ? `${o.metadata.namespace}/${o.metadata.name}`
      : o.metadata.name;
  const rest = point ? all.filter((o) => keyOf(o) > point.after) : all;
  const matches = selectorFilter(ctx);
  const items: KubeObject[] = [];
  let consumed = 0;
  for (const stored of rest) {
    if (limit > 0 && items.length === limit) break;
    consumed += 1;
    // selectors read labels, names and fields no version conversion moves: matched on the stored object
    if (matches(stored)) items.push(servedAs(ctx.type, stored));
  }
  const page: ListPage = { items, resourceVersion: String(revision) };
  if (consumed < rest.length && items.length > 0) {
    page.continue = encodeContinue({ resourceVersion: revision, after: keyOf(items.at(-1)!) });
    if (!hasSelectors(ctx)) page.remainingItemCount = rest.length - consumed;
  }
  return page;
}

function parseLimit(value: string | null): number {
  if (value === null || value === '') return 0;
  const limit = Number(value);
  if (!Number.isInteger(limit)) throw badRequest(`limit: Invalid value: "${value}": must be an integer`);
  return Math.max(0, limit);
}

/** resourceVersion=N with resourceVersionMatch=Exact lists the state at N; otherwise the current state. */
function exactRevision(ctx: RequestContext): number | undefined {
  const raw = ctx.query.get('resourceVersion') ?? '';
  const match = ctx.query.get('resourceVersionMatch') ?? '';
  if (match !== '' && raw === '')
    throw badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (raw === '' || raw === '0') return undefined;
  const revision = Number(raw);
  if (!Number.isInteger(revision) || revision < 0) throw badRequest(`invalid resourceVersion "${raw}"`);
  if (revision > Number(ctx.store.resourceVersion))
    throw new ApiError(
      504,
      'Timeout',
      `Too large resource version: ${revision}, current: ${ctx.store.resourceVersion}`,
      { retryAfterSeconds: 1 },
    );
  return match === 'Exact' ? revision : undefined;
}

function selectorFilter(ctx: RequestContext): (o: KubeObject) => boolean {
  const labels = labelSelectorMatcher(ctx.query.get('labelSelector') ?? undefined);
  const fields = fieldSelectorMatcher(ctx.query.get('fieldSelector') ?? undefined);
  return (o) => labels(o) && fields(o);
}

function hasSelectors(ctx: RequestContext): boolean {
  return (ctx.query.get('labelSelector') ?? '') !== '' || (ctx.query.get('fieldSelector') ?? '') !== '';
}

function expired(ctx: RequestContext, after: string | undefined): ApiError {
  const fresh =
    after === undefined ? undefined : encodeContinue({ resourceVersion: Number(ctx.store.resourceVersion), after });
  return new ApiError(410, 'Expired', EXPIRED_MESSAGE, undefined, fresh ? { continue: fresh } : undefined);
}
