import { describe, expect, it } from '@jest/globals';
import { failingEntry, storageEntriesOf, storageEntryEvidence } from '../../../src/diagnosis/storage-uris.js';
import { fieldPathProblem } from '../../../src/findings/next-step-quality.js';
import { storageEntryField, storageEntryIn } from '../../../src/findings/storage-entry.js';
import type { InferenceServiceObject } from '../../../src/kube/schemas.js';

const isvc = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'llm', namespace: 'ns' },
  spec: {
    predictor: {
      model: { modelFormat: { name: 'huggingface' } },
      storageUris: [
        { uri: 'pvc://base-models/llama-3-8b', mountPath: '/mnt/models/base' },
        { uri: 's3://adapters/sql-lora/', mountPath: '/mnt/models/lora' },
        { uri: 'oci://quay.io/acme/extra:1' },
      ],
    },
  },
} as unknown as InferenceServiceObject;

describe('storageUris entries', () => {
  const entries = storageEntriesOf(isvc, 'predictor');

  it('lists each entry with its path as the object has it, uri and mountPath (CRD default /mnt/models)', () => {
    expect(entries.map((e) => [e.path, e.uri, e.mountPath])).toEqual([
      ['spec.predictor.storageUris[0]', 'pvc://base-models/llama-3-8b', '/mnt/models/base'],
      ['spec.predictor.storageUris[1]', 's3://adapters/sql-lora/', '/mnt/models/lora'],
      ['spec.predictor.storageUris[2]', 'oci://quay.io/acme/extra:1', '/mnt/models'],
    ]);
    for (const e of entries) expect(fieldPathProblem(isvc, `${e.path}.uri`)).toBeUndefined();
  });

  it('picks the entry the failure names last (the uri, or the /mnt/pvc path of a pvc:// entry)', () => {
    const log = [
      'Copying contents of /mnt/pvc/llama-3-8b to local',
      'Copying contents of s3://adapters/sql-lora to local',
      'RuntimeError: Failed to fetch model. No model found in s3://adapters/sql-lora.',
    ].join('\n');
    expect(failingEntry(entries, log)?.index).toBe(1);
    expect(failingEntry(entries, 'Cannot locate source uri /mnt/pvc/llama-3-8b for PVC')?.index).toBe(0);
    expect(failingEntry(entries, 'no uri named here')).toBeUndefined();
    expect(failingEntry(entries.slice(0, 1), 'anything')?.index).toBe(0);
  });

  it('is read back from the evidence by the catalog, so next steps name the entry', () => {
    const entry = entries[1]!;
    const read = storageEntryIn([storageEntryEvidence('InferenceService ns/llm', entry)]);
    expect(read).toEqual({ path: entry.path, uri: entry.uri, mountPath: entry.mountPath });
    expect(storageEntryField(read!)).toBe(
      'spec.predictor.storageUris[1].uri (now s3://adapters/sql-lora/, mountPath /mnt/models/lora)',
    );
  });

  it('is empty for a component with a single storageUri', () => {
    const single = {
      ...isvc,
      spec: { predictor: { model: { storageUri: 'gs://b/m' } } },
    } as unknown as InferenceServiceObject;
    expect(storageEntriesOf(single, 'predictor')).toEqual([]);
  });
});
