/**
 * GET …?watch=1: a chunked stream of `{"type","object"}` JSON lines. Without a resourceVersion
 * (or "0") it starts with ADDED for the current objects; from a resourceVersion it replays the
 * history after it, or sends an ERROR event with a 410 Gone Status (reason Expired) and ends when
 * that history is gone. Objects that stop / start matching the selectors arrive as DELETED / ADDED.
 * `kubectl get -w` asks for Table events: each event then carries a one-row Table.
 */
import { badRequest, statusObject } from './api-error.js';
import type { KubeObject } from './kube-object.js';
import { servedAs, typeKeyOf } from './object-store.js';
import type { RequestContext } from './request-context.js';
import { fieldSelectorMatcher, labelSelectorMatcher } from './selectors.js';
import { parseIncludeObject, toTable, wantsTable } from './table-printer.js';
import type { StoreChange } from './watch-history.js';

const BOOKMARK_INTERVAL_MS = 30_000;

/** Open watch streams, so that closing the simulator can end them. */
export class WatchRegistry {
  private readonly open = new Set<() => void>();

  add(end: () => void): () => void {
    this.open.add(end);
    return () => this.open.delete(end);
  }

  get size(): number {
    return this.open.size;
  }

  endAll(): void {
    for (const end of [...this.open]) end();
  }
}

export function handleWatch(ctx: RequestContext): void {
  const { query, store, path, type, res } = ctx;
  const rawVersion = query.get('resourceVersion') ?? '';
  const fromVersion = rawVersion === '' || rawVersion === '0' ? undefined : Number(rawVersion);
  if (fromVersion !== undefined && !Number.isInteger(fromVersion))
    throw badRequest(`invalid resourceVersion "${rawVersion}"`);
  const matches = objectFilter(ctx);
  const bookmarks = ['1', 'true'].includes(query.get('allowWatchBookmarks') ?? '');
  const backlog = fromVersion === undefined ? 'current' : store.changesSince(fromVersion);

  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders(); // clients wait for the headers before reading events, and there may be none for a while
  const asTable = wantsTable(ctx.req.headers.accept);
  const includeObject = parseIncludeObject(query.get('includeObject'));
  const send = (eventType: string, object: unknown): void => {
    if (res.writableEnded) return;
    const shown =
      asTable && eventType !== 'ERROR' && eventType !== 'BOOKMARK'
        ? toTable(type, [object as KubeObject], { resourceVersion: store.resourceVersion, includeObject })
        : object;
    res.write(`${JSON.stringify({ type: eventType, object: shown })}\n`);
  };

  if (backlog === 'expired') {
    const message = `too old resource version: ${fromVersion} (${store.resourceVersion})`;
    send('ERROR', statusObject(410, 'Expired', message));
    res.end();
    return;
  }

  const typeKey = typeKeyOf(type);
  const deliver = (change: StoreChange): void => {
    if (change.typeKey !== typeKey) return;
    const event = translate(change, matches);
    if (event) send(event, servedAs(type, change.object));
  };
  if (backlog === 'current') {
    for (const object of store.listIn(type, path.namespace)) if (matches(object)) send('ADDED', object);
  } else backlog.forEach(deliver);
  if (bookmarks && query.get('sendInitialEvents') === 'true') {
    send('BOOKMARK', bookmark(ctx, { 'k8s.io/initial-events-end': 'true' }));
  }

  const unsubscribe = store.subscribe(deliver);
  const timers: NodeJS.Timeout[] = [];
  const end = (): void => {
    unsubscribe();
    unregister();
    for (const t of timers) clearTimeout(t);
    if (!res.writableEnded) res.end();
  };
  const unregister = ctx.watches.add(end);
  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? '');
  if (Number.isFinite(timeoutSeconds) && timeoutSeconds > 0) timers.push(setTimeout(end, timeoutSeconds * 1000));
  if (bookmarks) timers.push(setInterval(() => send('BOOKMARK', bookmark(ctx)), BOOKMARK_INTERVAL_MS));
  ctx.req.on('close', end);
  res.on('close', end);
}

function objectFilter(ctx: RequestContext): (object: KubeObject) => boolean {
  const labels = labelSelectorMatcher(ctx.query.get('labelSelector') ?? undefined);
  const fields = fieldSelectorMatcher(ctx.query.get('fieldSelector') ?? undefined);
  const { namespace, name } = ctx.path;
  return (o) =>
    (namespace === undefined || !ctx.type.namespaced || o.metadata.namespace === namespace) &&
    (name === undefined || o.metadata.name === name) &&
    labels(o) &&
    fields(o);
}

/** The event a watcher with these selectors sees for a change, if any. */
function translate(change: StoreChange, matches: (o: KubeObject) => boolean): string | undefined {
  const now = matches(change.object);
  if (change.type !== 'MODIFIED') return now ? change.type : undefined;
  const before = change.previous ? matches(change.previous) : now;
  if (now) return before ? 'MODIFIED' : 'ADDED';
  return before ? 'DELETED' : undefined;
}

function bookmark(ctx: RequestContext, annotations?: Record<string, string>): Record<string, unknown> {
  return {
    apiVersion: ctx.type.group ? `${ctx.type.group}/${ctx.type.version}` : ctx.type.version,
    kind: ctx.type.kind,
    metadata: { resourceVersion: ctx.store.resourceVersion, ...(annotations ? { annotations } : {}) },
  };
}
