/** The Events the bot records on objects (what `kubectl describe` shows to anyone who may read the namespace) carry no secret. */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import path from 'node:path';
import { kubeConfigForServer, makeKubeClients } from '../../src/kube/client.js';
import { ClusterWriter } from '../../src/kube/cluster-writer.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { secretGenerator } from '../fixtures/secrets/secret-generator.mjs';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-access-denied')) });
});
afterAll(async () => {
  await sim?.close();
});

it('redacts an Event message before writing it, and cuts it to 1024 characters without halving a marker', async () => {
  const g = secretGenerator(3);
  const [password, token] = [g.password(), g.alnum(40)];
  const writer = new ClusterWriter(makeKubeClients(kubeConfigForServer(sim.url)));
  const involved = {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    namespace: 'risk-models',
    name: 'credit-xgb',
  };
  const message = `isvc-doctor: restart-pods failed: the webhook answered for postgres://app:${password}@db:5432/x with Authorization: Bearer ${token} ${'x'.repeat(1100)}`;
  await writer.createEvent(involved, { type: 'Warning', reason: 'RemediationFailed', message });
  const written = sim.store
    .list('v1', 'Event', 'risk-models')
    .filter((e) => (e as { reason?: string }).reason === 'RemediationFailed');
  expect(written).toHaveLength(1);
  const text = String((written[0] as { message?: string }).message);
  expect(text).not.toContain(password);
  expect(text).not.toContain(token);
  expect(text).toContain('postgres://app:[REDACTED]@db:5432/x with Authorization: Bearer [REDACTED]');
  expect(text.length).toBeLessThanOrEqual(1024);
});
