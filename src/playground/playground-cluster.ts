/**
 * The simulated cluster the playground serves: several snapshot folders merged into one (objects
 * and logs together; each folder's InferenceServices keep their own namespaces), and the workload
 * model of each folder's target (`workload.yaml`) for the playground's controller.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { loadSnapshot, SnapshotError, type Snapshot } from '../snapshot/load-snapshot.js';
import type { Workload } from './cluster/playground-controller.js';
import { packageRoot } from './package-root.js';
import { rebaseTimestamps } from './rebase-timestamps.js';

/** How long before the playground's start each snapshot reads as captured. */
const CAPTURED_AGO_MS = 3 * 60_000;

export interface PlaygroundCluster {
  snapshot: Snapshot;
  workloads: Workload[];
  /** The folders it was made of. */
  sources: string[];
}

export function bundledScenariosDir(): string {
  return path.join(packageRoot(), 'src', 'playground', 'scenarios');
}

export async function bundledScenarioDirs(): Promise<string[]> {
  const dir = bundledScenariosDir();
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => path.join(dir, e.name))
    .sort();
}

type SnapshotObject = { kind?: string; metadata?: { namespace?: string; name?: string } };

/**
 * Snapshots merged into one cluster must not change each other's diagnosis: an InferenceService's
 * or LLMInferenceService's namespace/name is one snapshot's only (the cluster panel keys both kinds by it), and a snapshot's access rules (the bot denied a read) must not reach
 * another's services. Either is refused, naming both folders, rather than served mixed. (Shared
 * control-plane objects, such as a Knative gateway, are served as the last folder has them.)
 */
function checkSeparate(snapshots: readonly Snapshot[]): void {
  const owner = new Map<string, string>();
  const namespacesOf = new Map<string, Set<string>>();
  for (const s of snapshots) {
    const namespaces = new Set<string>();
    namespacesOf.set(s.dir, namespaces);
    for (const o of s.objects as SnapshotObject[]) {
      if (o.metadata?.namespace) namespaces.add(o.metadata.namespace);
      if (o.kind !== 'InferenceService' && o.kind !== 'LLMInferenceService') continue;
      const key = `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name}`;
      const other = owner.get(key);
      if (other && other !== s.dir)
        throw new SnapshotError(
          `${o.kind} ${key} is also in ${other}: give each snapshot its own namespace or name`,
          s.dir,
        );
      owner.set(key, s.dir);
    }
  }
  if (snapshots.length < 2) return;
  for (const s of snapshots) {
    for (const { verb, resource, namespace } of s.deny) {
      const what = `access.yaml denies ${verb} ${resource}`;
      if (namespace === undefined)
        throw new SnapshotError(
          `${what} in every namespace, which would reach the other snapshots' services too: load this snapshot on its own, or give the rule a namespace`,
          s.dir,
        );
      const sharing = snapshots.find((o) => o !== s && namespacesOf.get(o.dir)?.has(namespace));
      if (sharing)
        throw new SnapshotError(
          `${what} in namespace ${namespace}, which ${sharing.dir} uses too: give each snapshot its own namespace`,
          s.dir,
        );
    }
  }
}

export async function loadPlaygroundCluster(dirs: string[]): Promise<PlaygroundCluster> {
  const snapshots = await Promise.all(dirs.map((d) => loadSnapshot(d)));
  checkSeparate(snapshots);
  const snapshot: Snapshot = {
    dir: dirs.join(path.delimiter),
    objects: snapshots.flatMap((s) => rebaseTimestamps(s.objects, Date.now(), CAPTURED_AGO_MS)),
    logs: new Map(snapshots.flatMap((s) => [...s.logs])),
    deny: snapshots.flatMap((s) => s.deny),
  };
  const workloads = (await Promise.all(snapshots.map(workloadOf))).filter((w): w is Workload => w !== null);
  return { snapshot, workloads, sources: dirs };
}

async function workloadOf(snapshot: Snapshot): Promise<Workload | null> {
  const target = (snapshot.expect as { target?: { namespace?: string; name?: string } } | undefined)?.target;
  if (!target?.name) return null;
  const file = path.join(snapshot.dir, 'workload.yaml');
  let model: Record<string, unknown> = {};
  try {
    model = (parse(await readFile(file, 'utf8')) ?? {}) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new SnapshotError(`cannot read: ${(error as Error).message.split('\n')[0]}`, file);
  }
  return {
    namespace: target.namespace ?? 'default',
    name: target.name,
    ...(typeof model.needsMemory === 'string' ? { needsMemory: model.needsMemory } : {}),
    ...(typeof model.modelUri === 'string' ? { modelUri: model.modelUri } : {}),
    ...(model.canaryCrashing === true ? { canaryCrashing: true } : {}),
    ...(typeof model.kvCacheTokens === 'number' ? { kvCacheTokens: model.kvCacheTokens } : {}),
    ...(typeof model.contextTokens === 'number' ? { contextTokens: model.contextTokens } : {}),
    ...(typeof model.routeTimeoutsRefusedBy === 'string'
      ? { routeTimeoutsRefusedBy: model.routeTimeoutsRefusedBy }
      : {}),
    ...(typeof model.weightsGiB === 'number' ? { weightsGiB: model.weightsGiB } : {}),
    ...(typeof model.gpuMemoryGiB === 'number' ? { gpuMemoryGiB: model.gpuMemoryGiB } : {}),
  };
}
