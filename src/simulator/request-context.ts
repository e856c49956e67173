/** What every resource handler gets: the parsed request, its resource type, the store and the snapshot. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Snapshot } from '../snapshot/load-snapshot.js';
import { badRequest } from './api-error.js';
import type { ResourcePath } from './api-path.js';
import type { ObjectStore } from './object-store.js';
import type { ResourceType } from './resource-registry.js';
import type { WatchRegistry } from './watch-stream.js';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  path: ResourcePath;
  type: ResourceType;
  query: URLSearchParams;
  store: ObjectStore;
  snapshot: Snapshot;
  watches: WatchRegistry;
}

/** `dryRun=All`: validate and answer, store nothing. Any other value is a 400. */
export function isDryRun(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun').filter((v) => v !== '');
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  throw badRequest(`Invalid dry run value: ${values.filter((v) => v !== 'All').join(', ')} (only All is supported)`);
}
