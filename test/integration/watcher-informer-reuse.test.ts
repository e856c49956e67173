/**
 * The watcher's diagnoses start from the informer's objects: the InferenceService an informer holds
 * is handed to the diagnosis (role `all`: watcher and incident worker in one process), which then
 * does not ask the API server for it and still reports the same root cause.
 */
import { afterAll, expect, it } from '@jest/globals';
import path from 'node:path';
import { diagnose } from '../../src/app/diagnoser.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { startSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { IsvcWatcher } from '../../src/watcher/isvc-watcher.js';
import { until } from '../support/until.js';

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

it('diagnoses from the object the informer holds, without a GET of the InferenceService', async () => {
  const sim = await startSimulator({
    snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found')),
    port: 0,
  });
  closers.push(() => sim.close());
  const kubeConfig = kubeConfigForServer(sim.url);
  const watcher = new IsvcWatcher({
    kubeConfig,
    namespaces: ['default'],
    onChange: () => undefined,
    onDelete: () => undefined,
  });
  closers.push(() => watcher.stop());
  await watcher.start();
  const held = watcher.object('default', 'sklearn-iris');
  expect(held?.resource).toEqual(expect.objectContaining({ group: 'serving.kubeflow.org', version: 'v1alpha2' }));
  expect(watcher.object('default', 'nope')).toBeUndefined();

  const before = sim.requests.length;
  const report = await diagnose(
    kubeConfig,
    { namespace: 'default', name: 'sklearn-iris' },
    { inferenceService: held! },
  );
  const asked = sim.requests.slice(before).filter((r) => r.verb !== 'watch');
  expect(report.rootCause).toBe('STORAGE_URI_NOT_FOUND');
  expect(report.target.apiVersion).toBe('serving.kubeflow.org/v1alpha2');
  expect(asked.filter((r) => r.resource === 'inferenceservices')).toHaveLength(0);
  // the pods are listed once, by the label of the group the informer saw
  expect(
    asked.filter((r) => r.resource === 'pods' && r.namespace === 'default').map((r) => r.query.labelSelector),
  ).toEqual(['serving.kubeflow.org/inferenceservice=sklearn-iris']);
});

it('caches InferenceServices without managedFields or the last-applied annotation, listed or watched, and diagnoses from them', async () => {
  const snapshot = await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found'));
  const applied = (o: Record<string, unknown>) => {
    const metadata = o.metadata as { annotations?: Record<string, string>; managedFields?: unknown[] };
    metadata.managedFields = [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: String(o.apiVersion),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:predictor': {} } },
      },
    ];
    metadata.annotations = {
      ...metadata.annotations,
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ spec: o.spec }),
      'team.example.com/owner': 'ml',
    };
    return o;
  };
  for (const o of snapshot.objects) if (o.kind === 'InferenceService') applied(o);
  const sim = await startSimulator({ snapshot, port: 0 });
  closers.push(() => sim.close());
  const kubeConfig = kubeConfigForServer(sim.url);
  const watcher = new IsvcWatcher({
    kubeConfig,
    namespaces: ['default'],
    onChange: () => undefined,
    onDelete: () => undefined,
  });
  closers.push(() => watcher.stop());
  await watcher.start();

  const listed = watcher.object('default', 'sklearn-iris')!.object;
  expect(listed.metadata?.managedFields).toBeUndefined();
  expect(listed.metadata?.annotations).toEqual({ 'team.example.com/owner': 'ml' });
  expect(listed.metadata?.resourceVersion).toBeTruthy();
  const report = await diagnose(
    kubeConfig,
    { namespace: 'default', name: 'sklearn-iris' },
    { inferenceService: watcher.object('default', 'sklearn-iris')! },
  );
  expect(report.rootCause).toBe('STORAGE_URI_NOT_FOUND');

  const original = snapshot.objects.find(
    (o) => o.kind === 'InferenceService' && (o.metadata as { name: string }).name === 'sklearn-iris',
  )!;
  sim.store.upsert(
    applied({ ...structuredClone(original), metadata: { name: 'sklearn-iris-2', namespace: 'default' } }),
  );
  await until(() => watcher.object('default', 'sklearn-iris-2') !== undefined, 'the watched object');
  const watched = watcher.object('default', 'sklearn-iris-2')!.object;
  expect(watched.metadata?.managedFields).toBeUndefined();
  expect(watched.metadata?.annotations).toEqual({ 'team.example.com/owner': 'ml' });
  expect((watched as { spec?: unknown }).spec).toEqual(original.spec);
});

it('lists a page at a time (limit / continue) and holds every InferenceService of the namespace', async () => {
  const objects: Record<string, unknown>[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }];
  for (let i = 0; i < 1200; i += 1) {
    objects.push({
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: `m-${i}`, namespace: 'default' },
      spec: { predictor: { sklearn: { storageUri: 'gs://m' } } },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    });
  }
  const sim = await startSimulator({
    snapshot: { dir: '/nonexistent', objects, logs: new Map(), deny: [], cluster: { kserve: '0.11' } } as never,
    port: 0,
  });
  closers.push(() => sim.close());
  const watcher = new IsvcWatcher({
    kubeConfig: kubeConfigForServer(sim.url),
    namespaces: ['default'],
    versions: [
      {
        group: 'serving.kserve.io',
        version: 'v1beta1',
        plural: 'inferenceservices',
        kind: 'InferenceService',
        namespaced: true,
      },
    ],
    onChange: () => undefined,
    onDelete: () => undefined,
  });
  closers.push(() => watcher.stop());
  await watcher.start();
  expect(watcher.size).toBe(1200);
  const lists = sim.requests.filter((r) => r.verb === 'list' && r.resource === 'inferenceservices');
  expect(lists.map((r) => [r.query.limit, Boolean(r.query.continue)])).toEqual([
    ['500', false],
    ['500', true],
    ['500', true],
  ]);
});
