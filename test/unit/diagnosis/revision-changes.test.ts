/** What a new revision changed, read from the two Revision objects; what Knative writes per revision is not a change. */
import { expect, it } from '@jest/globals';
import { describeChanges, revisionChanges } from '../../../src/diagnosis/revision-changes.js';
import type { Revision } from '../../../src/kube/schemas.js';

const revision = (name: string, uri: string, container: Record<string, unknown>, annotations = {}): Revision => ({
  apiVersion: 'serving.knative.dev/v1',
  kind: 'Revision',
  metadata: {
    name,
    namespace: 'ns',
    annotations: {
      'internal.serving.kserve.io/storage-initializer-sourceuri': uri,
      'serving.knative.dev/creator': `system:serviceaccount:kserve:${name}`,
      ...annotations,
    },
  },
  spec: { containers: [container] },
});

it('lists the storage URI, image, args, env and resources that differ, and nothing Knative sets per revision', () => {
  const a = revision('m-00001', 'gs://b/v1', {
    name: 'kserve-container',
    image: 'kserve/sklearnserver:v0.11.1',
    args: ['--model_name=m'],
    env: [
      { name: 'K_REVISION', value: 'm-00001' },
      { name: 'WORKERS', value: '1' },
      { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'token' } } },
    ],
    resources: { limits: { memory: '1Gi', cpu: '1' } },
  });
  const b = revision(
    'm-00002',
    'gs://b/v2',
    {
      name: 'kserve-container',
      image: 'kserve/sklearnserver:v0.12.0',
      args: ['--model_name=m'],
      env: [
        { name: 'K_REVISION', value: 'm-00002' },
        { name: 'WORKERS', value: '4' },
        { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's2', key: 'token' } } },
      ],
      resources: { limits: { memory: '2Gi', cpu: '1' } },
    },
    { 'autoscaling.knative.dev/target': '5' },
  );
  expect(revisionChanges(a, b)).toEqual([
    { what: 'storageUri', was: 'gs://b/v1', now: 'gs://b/v2' },
    { what: 'image', was: 'kserve/sklearnserver:v0.11.1', now: 'kserve/sklearnserver:v0.12.0' },
    { what: 'env WORKERS', was: '1', now: '4' },
    {
      what: 'env TOKEN',
      was: 'from {secretKeyRef:{name:s,key:token}}',
      now: 'from {secretKeyRef:{name:s2,key:token}}',
    },
    { what: 'resources.limits.memory', was: '1Gi', now: '2Gi' },
    { what: 'annotation autoscaling.knative.dev/target', was: 'none', now: '5' },
  ]);
  expect(describeChanges(revisionChanges(a, b).slice(0, 1))).toBe('storageUri gs://b/v1 -> gs://b/v2');
});

it('finds no change between revisions made from the same spec, and none when a revision is unknown', () => {
  const spec = { name: 'kserve-container', image: 'i:1', env: [{ name: 'K_REVISION', value: 'x' }] };
  expect(revisionChanges(revision('m-00001', 'u', spec), revision('m-00002', 'u', { ...spec, env: [] }))).toEqual([]);
  expect(revisionChanges(undefined, revision('m-00002', 'u', spec))).toEqual([]);
});

it('matches containers by name when a revision has several, and names one that was added', () => {
  const a = revision('m-00001', 'u', { name: 'kserve-container', image: 'i:1' });
  (a.spec as { containers: unknown[] }).containers.push({ name: 'agent', image: 'agent:1' });
  const b = revision('m-00002', 'u', { name: 'kserve-container', image: 'i:1' });
  (b.spec as { containers: unknown[] }).containers.push(
    { name: 'agent', image: 'agent:2' },
    { name: 'logger', image: 'l:1' },
  );
  expect(describeChanges(revisionChanges(a, b))).toBe('agent image agent:1 -> agent:2; container logger none -> added');
});
