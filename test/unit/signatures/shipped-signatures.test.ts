/**
 * The shipped signature catalog: it loads, and each entry's sample line is matched by its own
 * pattern and taken by it (no entry consulted before it takes it), its notMatching lines are not.
 */
import { describe, expect, it } from '@jest/globals';
import { shippedSignatures } from '../../../src/signatures/load-signatures.js';
import { testSignature } from '../../../src/signatures/test-signatures.js';

const catalog = shippedSignatures();

describe('shipped signatures', () => {
  it('cover every place a diagnosis looks', () => {
    expect(new Set(catalog.entries.map((e) => e.where))).toEqual(
      new Set(['model-log', 'storage-initializer', 'controller', 'event', 'condition']),
    );
  });

  it.each(catalog.entries.map((e) => [e.id, e] as const))(
    '%s: its sample is matched by its own pattern',
    (_id, entry) => {
      expect(testSignature(entry, catalog).problems).toEqual([]);
    },
  );

  it('every entry that names an error code says what to do next', () => {
    expect(catalog.entries.filter((e) => !e.ignore && !e.next).map((e) => e.id)).toEqual([]);
  });
});
