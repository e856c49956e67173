/**
 * The catalog answers `for` once per source and release facts and keeps the answer: asked again
 * with other facts (another cluster's releases, in the bot's long-lived catalog), it answers by
 * those, and a caller that changes the list it got changes nothing for the next one.
 */
import { describe, expect, it } from '@jest/globals';
import { compileSignature, SignatureCatalog } from '../../../src/signatures/signature-catalog.js';
import type { SignatureEntry } from '../../../src/signatures/signature-schema.js';

const entry = (id: string, versions?: SignatureEntry['versions']): SignatureEntry =>
  ({ id, where: 'model-log', pattern: id, lines: 1, ...(versions ? { versions } : {}) }) as unknown as SignatureEntry;

const catalog = new SignatureCatalog(
  [entry('old-only', { kserve: '<0.8' }), entry('any'), entry('new-only', { kserve: '>=0.8' })].map((e, i) =>
    compileSignature(e, 'test.yaml', i),
  ),
);
const ids = (entries: ReadonlyArray<{ id: string }>) => entries.map((e) => e.id);

describe('SignatureCatalog.for', () => {
  it('answers by the facts of each call, in catalog order', () => {
    expect(ids(catalog.for('model-log', { kserve: '0.7.0' }))).toEqual(['old-only', 'any']);
    expect(ids(catalog.for('model-log', { kserve: '0.11.2' }))).toEqual(['any', 'new-only']);
    expect(ids(catalog.for('model-log', { kserve: '0.7.0' }))).toEqual(['old-only', 'any']);
    expect(ids(catalog.for('model-log'))).toEqual(['old-only', 'any', 'new-only']);
    expect(ids(catalog.for('event', { kserve: '0.7.0' }))).toEqual([]);
  });

  it('hands out a list of its own each time', () => {
    catalog.for('model-log', { kserve: '0.7.0' }).pop();
    expect(ids(catalog.for('model-log', { kserve: '0.7.0' }))).toEqual(['old-only', 'any']);
  });
});
