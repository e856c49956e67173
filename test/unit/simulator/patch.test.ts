import { ApiError } from '../../../src/simulator/api-error.js';
import { applyJsonPatch, applyPatch, mergePatch, strategicMergePatch } from '../../../src/simulator/patch.js';

describe('merge patch (RFC 7386)', () => {
  it('merges objects, removes nulls and replaces arrays', () => {
    const target = { a: { b: 1, c: 2 }, list: [1, 2], keep: true };
    expect(mergePatch(target, { a: { b: null, d: 3 }, list: [3] })).toEqual({
      a: { c: 2, d: 3 },
      list: [3],
      keep: true,
    });
    expect(target).toEqual({ a: { b: 1, c: 2 }, list: [1, 2], keep: true });
  });
});

describe('strategic merge patch (approximation)', () => {
  it('merges lists of named items by name and honours $patch: delete', () => {
    const pod = {
      spec: {
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      },
    };
    const patched = strategicMergePatch(pod, {
      $setElementOrder: {},
      spec: {
        containers: [
          { name: 'b', image: 'z' },
          { name: 'c', image: 'new' },
          { name: 'a', $patch: 'delete' },
        ],
      },
    });
    expect(patched).toEqual({
      spec: {
        containers: [
          { name: 'b', image: 'z' },
          { name: 'c', image: 'new' },
        ],
      },
    });
  });

  it('is refused for custom resources like the real server (415)', () => {
    expect(() => applyPatch({}, 'application/strategic-merge-patch+json', '{}', { strategicAllowed: false })).toThrow(
      expect.objectContaining({ code: 415 }),
    );
  });
});

describe('JSON patch (RFC 6902)', () => {
  it('applies operations without touching the input', () => {
    const doc = { spec: { replicas: 1 } };
    expect(
      applyJsonPatch(doc, [
        { op: 'replace', path: '/spec/replicas', value: 3 },
        { op: 'add', path: '/spec/x', value: 'y' },
      ]),
    ).toEqual({ spec: { replicas: 3, x: 'y' } });
    expect(doc.spec.replicas).toBe(1);
  });

  it('answers a failed test operation with 422 Invalid', () => {
    let error: unknown;
    try {
      applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(422);
    expect((error as ApiError).reason).toBe('Invalid');
  });

  it('answers a malformed patch with 400 and an unknown content type with 415', () => {
    expect(() => applyPatch({}, 'application/json-patch+json', '{not json', { strategicAllowed: true })).toThrow(
      expect.objectContaining({ code: 400 }),
    );
    expect(() => applyPatch({}, 'application/json-patch+json', '{"op":"add"}', { strategicAllowed: true })).toThrow(
      expect.objectContaining({ code: 400 }),
    );
    expect(() => applyPatch({}, 'text/plain', '{}', { strategicAllowed: true })).toThrow(
      expect.objectContaining({ code: 415 }),
    );
  });

  it('treats server-side apply YAML as a merge', () => {
    expect(applyPatch({ a: 1 }, 'application/apply-patch+yaml', 'b: 2\n', { strategicAllowed: false })).toEqual({
      a: 1,
      b: 2,
    });
  });
});
