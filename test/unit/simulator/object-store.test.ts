import { ObjectStore } from '../../../src/simulator/object-store.js';

const isvc = (spec: unknown, status?: unknown) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'x', namespace: 'default' },
  spec,
  ...(status ? { status } : {}),
});

describe('ObjectStore', () => {
  it('fills uid, resourceVersion, creationTimestamp and generation, keeping given ones', () => {
    const store = new ObjectStore();
    const stored = store.upsert({ ...isvc({ a: 1 }), metadata: { name: 'x', creationTimestamp: '2024-01-01T00:00:00Z' } });
    expect(stored.metadata).toMatchObject({ namespace: 'default', resourceVersion: '1', generation: 1, creationTimestamp: '2024-01-01T00:00:00Z' });
    expect(stored.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new ObjectStore().upsert(isvc({ a: 1 })).metadata.uid).toBe(stored.metadata.uid);
  });

  it('bumps generation only when spec changes, resourceVersion on every change', () => {
    const store = new ObjectStore();
    store.upsert(isvc({ a: 1 }));
    expect(store.upsert(isvc({ a: 1 }, { ready: true })).metadata).toMatchObject({ generation: 1, resourceVersion: '2' });
    expect(store.upsert(isvc({ a: 2 })).metadata).toMatchObject({ generation: 2, resourceVersion: '3' });
    expect(store.resourceVersion).toBe('3');
  });

  it('serves each apiVersion separately and guesses plurals of unknown kinds', () => {
    const store = new ObjectStore();
    store.upsert(isvc({}));
    expect(store.get('serving.kubeflow.org/v1beta1', 'InferenceService', 'default', 'x')).toBeUndefined();
    store.upsert({ apiVersion: 'example.com/v1', kind: 'Policy', metadata: { name: 'p', namespace: 'n' } });
    expect(store.registry.byKind('example.com/v1', 'Policy')?.plural).toBe('policies');
    store.upsert({ apiVersion: 'example.com/v1', kind: 'Class', metadata: { name: 'c' } });
    expect(store.registry.byKind('example.com/v1', 'Class')).toMatchObject({ plural: 'classes', namespaced: false });
  });

  it('records history for watches and reports expired history after compact()', () => {
    const store = new ObjectStore();
    store.upsert(isvc({ a: 1 }));
    store.upsert(isvc({ a: 2 }));
    store.delete('serving.kserve.io/v1beta1', 'InferenceService', 'default', 'x');
    const changes = store.changesSince(1);
    expect(changes !== 'expired' && changes.map((c) => [c.type, c.resourceVersion])).toEqual([
      ['MODIFIED', 2],
      ['DELETED', 3],
    ]);
    store.compact();
    expect(store.changesSince(1)).toBe('expired');
    expect(store.changesSince(3)).toEqual([]);
  });

  it('keeps a bounded history', () => {
    const store = new ObjectStore(undefined, { historyLimit: 3 });
    for (let i = 0; i < 6; i++) store.upsert(isvc({ i }));
    expect(store.changesSince(1)).toBe('expired');
    expect(store.changesSince(3)).not.toBe('expired');
  });
});
