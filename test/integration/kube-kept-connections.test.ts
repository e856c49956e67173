/**
 * Connections to the API server are kept between requests: two diagnoses through a limited
 * KubeConfig (as `serve` and the CLI make them) open no more connections than the first wave sends
 * requests at once, where a connection per request opened one for each; an idle connection is
 * closed by the client after a while, not kept forever.
 */
import { afterAll, expect, it } from '@jest/globals';
import net from 'node:net';
import path from 'node:path';
import { runDiagnosis } from '../../src/diagnosis/run-diagnosis.js';
import { ALL_PLAYBOOKS } from '../../playbooks/index.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { limitRequests } from '../../src/kube/request-limits.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

/** A TCP relay in front of the simulator that counts the connections clients open. */
async function countingRelay(
  sim: RunningSimulator,
): Promise<{ url: string; opened: () => number; open: () => number }> {
  let opened = 0;
  const live = new Set<net.Socket>();
  const server = net.createServer((client) => {
    opened += 1;
    live.add(client);
    const upstream = net.connect(sim.port, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const end = () => {
      live.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const s of live) s.destroy();
    await new Promise((r) => server.close(r));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    opened: () => opened,
    open: () => live.size,
  };
}

it('two diagnoses reuse the connections of the first wave', async () => {
  const sim = await startSimulator({
    snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found')),
    latencyMs: 20,
  });
  closers.push(() => sim.close());
  const relay = await countingRelay(sim);
  const kubeConfig = limitRequests(kubeConfigForServer(relay.url));
  const target = { namespace: 'default', name: 'sklearn-iris' };
  const first = await runDiagnosis(ALL_PLAYBOOKS, kubeConfig, target);
  const second = await runDiagnosis(ALL_PLAYBOOKS, kubeConfig, target);
  expect(second.rootCause).toBe('STORAGE_URI_NOT_FOUND');
  const requests = first.stats.apiRequests + second.stats.apiRequests;
  expect(requests).toBeGreaterThanOrEqual(16);
  // at most one connection per request the first wave sends at once (the largest wave)
  expect(relay.opened()).toBeLessThanOrEqual(first.stats.apiRequests - 1);
  expect(relay.opened()).toBeLessThan(requests / 2);
});
