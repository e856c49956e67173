/**
 * The diagnosis lists a namespace's pods and events a page at a time (500 each, following continue
 * tokens), and keeps no managedFields: a namespace of 20,000 pods was one answer of hundreds of MB.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { kubeConfigForServer, makeKubeClients } from '../../src/kube/client.js';
import { ClusterReader } from '../../src/kube/cluster-reader.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';

const PODS = 1_100;
const pod = (i: number) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: `batch-${String(i).padStart(5, '0')}`,
    namespace: 'bulk',
    managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', fieldsType: 'FieldsV1' }],
  },
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
});
const event = (i: number) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: `batch-${i}.17a`, namespace: 'bulk', managedFields: [{ manager: 'kubelet' }] },
  involvedObject: { kind: 'Pod', name: `batch-${i}`, namespace: 'bulk' },
  reason: 'Pulled',
  message: 'Container image "busybox" already present on machine',
  type: 'Normal',
});

let sim: RunningSimulator;
beforeAll(async () => {
  const objects = [
    ...Array.from({ length: PODS }, (_, i) => pod(i)),
    ...Array.from({ length: 600 }, (_, i) => event(i)),
  ];
  sim = await startSimulator({ snapshot: { dir: 'bulk', objects, logs: new Map(), deny: [] } });
});
afterAll(async () => sim?.close());

it('lists every pod and event of a namespace in pages of 500, without managedFields', async () => {
  const reader = new ClusterReader(makeKubeClients(kubeConfigForServer(sim.url)));
  const [pods, events] = await Promise.all([reader.pods('bulk'), reader.events('bulk')]);
  expect(pods).toHaveLength(PODS);
  expect(events).toHaveLength(600);
  expect(pods.filter((p) => p.metadata?.managedFields)).toEqual([]);
  expect(events.filter((e) => e.metadata?.managedFields)).toEqual([]);
  const lists = (resource: string) => sim.requests.filter((r) => r.verb === 'list' && r.resource === resource);
  expect(lists('pods').map((r) => [r.query.limit, Boolean(r.query.continue)])).toEqual([
    ['500', false],
    ['500', true],
    ['500', true],
  ]);
  expect(lists('events').map((r) => [r.query.limit, Boolean(r.query.continue)])).toEqual([
    ['500', false],
    ['500', true],
  ]);
});
