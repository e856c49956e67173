/**
 * Loads a snapshot folder (contract/snapshot-format.md): the objects of objects.yaml
 * (multi-document, `kind: List` flattened), container logs under logs/, the deny rules of
 * access.yaml, the cluster's releases and API groups of cluster.yaml, and the raw expect.yaml /
 * config.yaml. Anything wrong with the folder is a SnapshotError whose one-line message names the
 * file (and line or key).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseAccessRules, type DenyRule } from './parse-access-rules.js';
import { parseClusterFile, type ClusterFile } from './parse-cluster-file.js';
import { parseObjects } from './parse-objects.js';
import { readContainerLogs } from './read-container-logs.js';
import { SnapshotError } from './snapshot-error.js';
import { parseYamlFile } from './parse-yaml-file.js';

export { SnapshotError } from './snapshot-error.js';
export type { DenyRule } from './parse-access-rules.js';
export type { ClusterFile } from './parse-cluster-file.js';

export interface Snapshot {
  dir: string;
  objects: Record<string, unknown>[];
  /** Key `${ns}/${pod}/${container}` or `${ns}/${pod}/${container}#previous`. */
  logs: Map<string, string>;
  deny: DenyRule[];
  /** cluster.yaml: releases and API groups; absent: inferred from the objects. */
  cluster?: ClusterFile;
  expect?: unknown;
  config?: unknown;
}

export async function loadSnapshot(dir: string): Promise<Snapshot> {
  const folder = await stat(dir).catch(() => null);
  if (!folder) throw new SnapshotError(`snapshot folder does not exist`, dir);
  if (!folder.isDirectory()) throw new SnapshotError(`not a folder`, dir);

  const objectsFile = path.join(dir, 'objects.yaml');
  const objectsText = await readOptional(objectsFile);
  if (objectsText === undefined)
    throw new SnapshotError('missing objects.yaml (every snapshot needs one)', objectsFile);

  const snapshot: Snapshot = {
    dir,
    objects: parseObjects(objectsText, objectsFile),
    logs: await readContainerLogs(path.join(dir, 'logs')),
    deny: [],
  };
  const accessFile = path.join(dir, 'access.yaml');
  const accessText = await readOptional(accessFile);
  if (accessText !== undefined) snapshot.deny = parseAccessRules(accessText, accessFile);
  const clusterFile = path.join(dir, 'cluster.yaml');
  const clusterText = await readOptional(clusterFile);
  if (clusterText !== undefined) snapshot.cluster = parseClusterFile(clusterText, clusterFile);

  for (const [key, file] of [
    ['expect', 'expect.yaml'],
    ['config', 'config.yaml'],
  ] as const) {
    const full = path.join(dir, file);
    const text = await readOptional(full);
    if (text !== undefined) snapshot[key] = parseYamlFile(text, full)[0] ?? null;
  }
  return snapshot;
}

/**
 * A YAML file of a snapshot may be at most this large: parsing YAML takes many times the text's
 * size in memory, and 64 MB holds well over 10,000 objects.
 */
export const MAX_YAML_BYTES = 64 * 1024 * 1024;

async function readOptional(file: string): Promise<string | undefined> {
  try {
    const { size } = await stat(file);
    if (size > MAX_YAML_BYTES)
      throw new SnapshotError(
        `too large to read (${(size / 1024 / 1024).toFixed(1)} MB; a snapshot's YAML file may be at most ${MAX_YAML_BYTES / 1024 / 1024} MB)`,
        file,
      );
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SnapshotError(`cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, file);
  }
}
