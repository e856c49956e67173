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
    const stored = store.upsert({
      ...isvc({ a: 1 }),
      metadata: { name: 'x', creationTimestamp: '2024-01-01T00:00:00Z' },
    });
    expect(stored.metadata).toMatchObject({
      namespace: 'default',
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: '2024-01-01T00:00:00Z',
    });
    expect(stored.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new ObjectStore().upsert(isvc({ a: 1 })).metadata.uid).toBe(stored.metadata.uid);
  });

  it('bumps generation only when spec changes, resourceVersion on every change', () => {
    const store = new ObjectStore();
    store.upsert(isvc({ a: 1 }));
    expect(store.upsert(isvc({ a: 1 }, { ready: true })).metadata).toMatchObject({
      generation: 1,
      resourceVersion: '2',
    });
    expect(store.upsert(isvc({ a: 2 })).metadata).toMatchObject({ generation: 2, resourceVersion: '3' });
    expect(store.resourceVersion).toBe('3');
  });

  it('serves a webhook configuration written as v1beta1 at v1, as the API server does', () => {
    const store = new ObjectStore();
    store.upsert({
      apiVersion: 'admissionregistration.k8s.io/v1beta1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'inferenceservice.serving.kubeflow.org' },
      webhooks: [{ name: 'inferenceservice.kfserving-webhook-server.pod-mutator' }],
    });
    const v1 = store.get(
      'admissionregistration.k8s.io/v1',
      'MutatingWebhookConfiguration',
      undefined,
      'inferenceservice.serving.kubeflow.org',
    );
    expect(v1).toMatchObject({
      apiVersion: 'admissionregistration.k8s.io/v1',
      webhooks: [{ name: 'inferenceservice.kfserving-webhook-server.pod-mutator' }],
    });
  });

  it('keeps one object per kind, served at every version of it, and guesses plurals of unknown kinds', () => {
    const store = new ObjectStore();
    // a v1beta1 object installs KFServing 0.6, which serves v1alpha2 too
    const stored = store.upsert({
      apiVersion: 'serving.kubeflow.org/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'x', namespace: 'default' },
      spec: { predictor: { sklearn: { storageUri: 'gs://m' } } },
    });
    expect(stored.apiVersion).toBe('serving.kubeflow.org/v1beta1');
    expect(store.get('serving.kserve.io/v1beta1', 'InferenceService', 'default', 'x')).toBeUndefined();
    expect(store.get('serving.kubeflow.org/v1alpha2', 'InferenceService', 'default', 'x')?.spec).toEqual({
      default: { predictor: { sklearn: { storageUri: 'gs://m' } } },
    });
    // written at v1alpha2, it is the same object
    store.upsert({
      apiVersion: 'serving.kubeflow.org/v1alpha2',
      kind: 'InferenceService',
      metadata: { name: 'x', namespace: 'default' },
      spec: { default: { predictor: { sklearn: { storageUri: 'gs://n' } } } },
    });
    expect(
      store
        .list('serving.kubeflow.org/v1beta1', 'InferenceService')
        .map((o) => [o.metadata.name, o.metadata.generation, (o.spec as any).predictor.sklearn.storageUri]),
    ).toEqual([['x', 2, 'gs://n']]);
    store.upsert({ apiVersion: 'example.com/v1', kind: 'Policy', metadata: { name: 'p', namespace: 'n' } });
    expect(store.registry.byKind('example.com/v1', 'Policy')?.plural).toBe('policies');
    store.upsert({ apiVersion: 'example.com/v1', kind: 'Class', metadata: { name: 'c' } });
    expect(store.registry.byKind('example.com/v1', 'Class')).toMatchObject({ plural: 'classes', namespaced: false });
  });

  it('lists a kind as it was at an older resourceVersion while the history reaches back', () => {
    const store = new ObjectStore(undefined, { historyLimit: 10 });
    const cm = (name: string, data: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default' },
      data: { v: data },
    });
    store.upsert(cm('a', '1'));
    store.upsert(cm('b', '1'));
    const type = store.registry.byKind('v1', 'ConfigMap')!;
    store.upsert(cm('a', '2'));
    store.delete('v1', 'ConfigMap', 'default', 'b');
    store.upsert(cm('c', '1'));
    const then = store.listIn(type, 'default', 2);
    expect(then !== 'expired' && then.map((o) => [o.metadata.name, (o.data as { v: string }).v])).toEqual([
      ['a', '1'],
      ['b', '1'],
    ]);
    expect(store.listIn(type, 'default').map((o) => o.metadata.name)).toEqual(['a', 'c']);
    store.compact();
    expect(store.listIn(type, 'default', 2)).toBe('expired');
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
