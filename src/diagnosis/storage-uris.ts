/**
 * The model sources of a component that lists several (`storageUris`, KServe 0.16+: `[{uri, mountPath}]`
 * on the predictor, transformer or explainer, next to its model block). A finding about one of them
 * names that entry: its field path as it is in the object (`spec.predictor.storageUris[1]`), its uri and
 * its mountPath (default /mnt/models, as the CRD defaults it), never a `storageUri` the object lacks.
 *
 * `storageEntryEvidence` writes the entry as a field evidence line that the catalog's next-step
 * templates read back (`storageEntryIn`, findings layer), so every storage code's next step names the
 * failing entry without a template of its own.
 */
import { storageEntryLine } from '../findings/storage-entry.js';
import type { Evidence } from '../findings/types.js';
import { componentViewOf } from './field-path.js';
import type { InferenceServiceObject } from '../kube/schemas.js';

export interface StorageEntry {
  index: number;
  uri: string;
  mountPath: string;
  /** e.g. spec.predictor.storageUris[1] */
  path: string;
}

const DEFAULT_MOUNT_PATH = '/mnt/models';

/** The component's storageUris entries, in order; [] when it has none. */
export function storageEntriesOf(
  isvc: InferenceServiceObject,
  component: string | undefined,
  revision?: string,
): StorageEntry[] {
  const view = componentViewOf(isvc, component, revision);
  const list = view?.spec.storageUris;
  if (!view || !Array.isArray(list)) return [];
  const base = view.modelPath.slice(0, view.modelPath.indexOf(view.name) + 1).join('.');
  return list.flatMap((item, index) => {
    if (typeof item !== 'object' || item === null) return [];
    const { uri, mountPath } = item as { uri?: unknown; mountPath?: unknown };
    if (typeof uri !== 'string') return [];
    return [
      {
        index,
        uri,
        mountPath: typeof mountPath === 'string' && mountPath ? mountPath : DEFAULT_MOUNT_PATH,
        path: `${base}.storageUris[${index}]`,
      },
    ];
  });
}

/**
 * The entry a failure's own words are about: the one whose uri (or, for pvc://, the /mnt/pvc path the
 * storage-initializer copies from; or its mountPath) the text names last; the only entry when there is
 * one; undefined when the text names none of several.
 */
export function failingEntry(entries: readonly StorageEntry[], text: string): StorageEntry | undefined {
  if (entries.length <= 1) return entries[0];
  let best: { entry: StorageEntry; at: number } | undefined;
  for (const entry of entries) {
    const pvcPath = entry.uri.startsWith('pvc://')
      ? `/mnt/pvc/${entry.uri.slice('pvc://'.length).replace(/^[^/]+\/?/, '')}`
      : undefined;
    const at = Math.max(
      text.lastIndexOf(entry.uri.replace(/\/+$/, '')),
      pvcPath ? text.lastIndexOf(pvcPath.replace(/\/+$/, '')) : -1,
    );
    if (at >= 0 && (!best || at > best.at)) best = { entry, at };
  }
  return best?.entry;
}

/** The entry as a field line of the InferenceService (what next steps name). */
export function storageEntryEvidence(ref: string, entry: StorageEntry): Evidence {
  return { kind: 'field', ref, text: storageEntryLine(entry) };
}
