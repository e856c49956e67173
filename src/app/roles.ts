/**
 * What each `serve --role` runs. One process may run everything (`all`, the default), or the parts
 * may run in processes of their own on one Redis: the Slack listeners (`web`), the job workers
 * (`worker`), the Lease-elected unready-watcher (`watcher`). With `clusters:` in the config
 * (docs/multi-cluster.md), `web` talks to Slack only, with no kubeconfig, and one `agent` per
 * cluster (`--cluster NAME`) runs that cluster's workers and its watcher.
 */
export type ServeRole = 'all' | 'web' | 'worker' | 'watcher' | 'agent';

export const SERVE_ROLES: readonly ServeRole[] = ['all', 'web', 'worker', 'watcher', 'agent'];

export interface RoleParts {
  /** The Bolt app and its listeners (Slack requests). */
  web: boolean;
  /** The diagnosis and incident workers (they post to Slack). */
  workers: boolean;
  /** The unready-watcher (informers and the Lease; it only queues incident jobs). */
  watcher: boolean;
}

export const ROLE_PARTS: Readonly<Record<ServeRole, RoleParts>> = {
  all: { web: true, workers: true, watcher: true },
  web: { web: true, workers: false, watcher: false },
  worker: { web: false, workers: true, watcher: false },
  watcher: { web: false, workers: false, watcher: true },
  agent: { web: false, workers: true, watcher: true },
};
