/**
 * One entry of a component's `storageUris` as a field evidence line, and read back from a finding's
 * evidence: `spec.predictor.storageUris[1]: uri s3://bucket/lora, mountPath /mnt/models/lora`. The
 * catalog's next steps name this entry (its field path, uri and mountPath) where the object lists
 * several model sources, instead of a `storageUri` it does not have.
 */
export interface StorageEntryFacts {
  uri: string;
  mountPath: string;
  /** e.g. spec.predictor.storageUris[1] */
  path: string;
}

const LINE = /^((?:spec\.)[\w.]*storageUris\[\d+\]): uri (\S+), mountPath (\S+)/;

export function storageEntryLine(e: StorageEntryFacts): string {
  return `${e.path}: uri ${e.uri}, mountPath ${e.mountPath}`;
}

/** The storageUris entry a finding's evidence names, if any. */
export function storageEntryIn(
  evidence: ReadonlyArray<{ kind: string; text?: string }>,
): StorageEntryFacts | undefined {
  for (const e of evidence) {
    const m = e.kind === 'field' && e.text ? LINE.exec(e.text) : null;
    if (m?.[1] && m[2] && m[3]) return { path: m[1], uri: m[2], mountPath: m[3] };
  }
  return undefined;
}

/** How a next step names the entry's source: `spec.predictor.storageUris[1].uri (now s3://…, mounted at /mnt/models/lora)`. */
export function storageEntryField(e: StorageEntryFacts): string {
  return `${e.path}.uri (now ${e.uri}, mountPath ${e.mountPath})`;
}
