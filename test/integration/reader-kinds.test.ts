/**
 * Reads by kind (ClusterReader.listKind / readKind over the KINDS table): one request per read however
 * often it is asked (the first wave and the playbooks share it), none for a group the cluster does not
 * serve, null for a missing object, and a refusal recorded for BOT_FORBIDDEN.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { kubeConfigForServer, makeKubeClients } from '../../src/kube/client.js';
import { ClusterReader } from '../../src/kube/cluster-reader.js';
import { ForbiddenError } from '../../src/kube/errors.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';

const objects = [
  {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Service',
    metadata: { name: 'sklearn-iris-predictor', namespace: 'team' },
    spec: { template: { spec: { containers: [{ image: 'kserve/sklearnserver' }] } } },
    status: { url: 'http://sklearn-iris-predictor.team.example.com' },
  },
  {
    apiVersion: 'networking.istio.io/v1alpha3',
    kind: 'VirtualService',
    metadata: { name: 'sklearn-iris', namespace: 'team' },
    spec: { hosts: ['sklearn-iris.team.example.com'] },
  },
  {
    apiVersion: 'networking.istio.io/v1alpha3',
    kind: 'Gateway',
    metadata: { name: 'knative-ingress-gateway', namespace: 'knative-serving' },
    spec: { selector: { istio: 'ingressgateway' } },
  },
  {
    apiVersion: 'security.istio.io/v1',
    kind: 'AuthorizationPolicy',
    metadata: { name: 'allow-all', namespace: 'istio-system' },
    spec: {},
  },
];

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({
    snapshot: {
      dir: 'kinds',
      objects,
      logs: new Map(),
      deny: [{ verb: 'list', resource: 'authorizationpolicies', namespace: 'team' }],
    },
  });
});
afterAll(async () => sim?.close());

const newReader = () => new ClusterReader(makeKubeClients(kubeConfigForServer(sim.url)));
const requestsFor = (resource: string) => sim.requests.filter((r) => r.resource === resource);

it("lists a kind at a version the cluster serves, parsed with the kind's schema, once however often it is asked", async () => {
  const reader = newReader();
  const [services, again] = await Promise.all([
    reader.listKind('KnativeService', 'team'),
    reader.listKind('KnativeService', 'team'),
  ]);
  expect(services.map((s) => [s.metadata.name, s.status?.url])).toEqual([
    ['sklearn-iris-predictor', 'http://sklearn-iris-predictor.team.example.com'],
  ]);
  expect(again).toBe(services);
  // two reads of one kind at once are one request
  await Promise.all([reader.listKind('VirtualService', 'team'), reader.listKind('VirtualService', 'team')]);
  expect(requestsFor('services').map((r) => [r.verb, r.group, r.version])).toEqual([
    ['list', 'serving.knative.dev', 'v1'],
  ]);
  expect(requestsFor('virtualservices')).toHaveLength(1);
});

it('reads one object of a kind, null when it is missing, and sends nothing for a group the cluster does not serve', async () => {
  const reader = newReader();
  const gateway = await reader.readKind('IstioGateway', 'knative-serving', 'knative-ingress-gateway');
  expect(gateway?.metadata.name).toBe('knative-ingress-gateway');
  expect(await reader.readKind('IstioGateway', 'knative-serving', 'knative-ingress-gateway')).toBe(gateway);
  expect(await reader.readKind('IstioGateway', 'knative-serving', 'other-gateway')).toBeNull();
  const before = sim.requests.length;
  expect(await reader.listKind('ClusterRbacConfig', undefined)).toEqual([]);
  expect(await reader.readKind('LeaderWorkerSet', 'team', 'sklearn-iris')).toBeNull();
  expect(sim.requests.slice(before).map((r) => r.resource)).toEqual([]);
});

it('a refused list rejects with ForbiddenError and is recorded for BOT_FORBIDDEN', async () => {
  const reader = newReader();
  await expect(reader.listKind('AuthorizationPolicy', 'team')).rejects.toBeInstanceOf(ForbiddenError);
  expect(await reader.listKind('AuthorizationPolicy', 'istio-system')).toHaveLength(1);
  expect(reader.denied()).toEqual([
    { verb: 'list', resource: 'authorizationpolicies', group: 'security.istio.io', namespace: 'team' },
  ]);
});
