/**
 * `kubernetes.requestTimeout`, `qps` and `burst` on every request client-node sends: a black-holed
 * API server (connections accepted, never answered) fails a diagnosis with KUBE_TIMEOUT naming the
 * request, in the runner and in the CLI (exit 3, one line); the token bucket spaces requests as the
 * simulator's request log shows.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { runDiagnosis } from '../../src/diagnosis/run-diagnosis.js';
import { kubeConfigForServer, makeKubeClients } from '../../src/kube/client.js';
import { ClusterReader } from '../../src/kube/cluster-reader.js';
import { KubeTimeoutError } from '../../src/kube/errors.js';
import { limitRequests } from '../../src/kube/request-limits.js';
import { TokenBucket } from '../../src/kube/token-bucket.js';
import { startSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { runCliMain } from '../support/run-cli.mjs';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

afterAll(removeTempDirs);

/** A server that accepts connections and never answers. */
async function blackHole(): Promise<{ url: string; accepted: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('kubernetes.requestTimeout', () => {
  it('fails a diagnosis against a black-holed API server with KUBE_TIMEOUT naming the request', async () => {
    const hole = await blackHole();
    try {
      const kc = limitRequests(kubeConfigForServer(hole.url), { timeoutMs: 300, qps: 0, burst: 1 });
      const error = await runDiagnosis([], kc, { namespace: 'default', name: 'sklearn-iris' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(KubeTimeoutError);
      expect((error as KubeTimeoutError).code).toBe('KUBE_TIMEOUT');
      expect((error as Error).message).toBe(
        'the Kubernetes API did not answer get inferenceservices in default within 300ms (kubernetes.requestTimeout)',
      );
      expect(hole.accepted()).toBeGreaterThan(0);
    } finally {
      await hole.close();
    }
  });

  it('makes the CLI exit 3 with one line naming what timed out (config kubernetes.requestTimeout)', async () => {
    const hole = await blackHole();
    try {
      const dir = tempDir('isvc-timeout-');
      const kubeconfig = path.join(dir, 'kubeconfig');
      writeFileSync(
        kubeconfig,
        `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${hole.url}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u, namespace: default}}]\ncurrent-context: x\n`,
      );
      const config = path.join(dir, 'config.yaml');
      writeFileSync(config, 'kubernetes:\n  requestTimeout: 250ms\n');
      const r = await runCliMain(main, ['diagnose', 'sklearn-iris', '--kubeconfig', kubeconfig, '--config', config]);
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/did not answer get inferenceservices in default within 250ms/);
      expect(r.stderr).toMatch(/kubernetes\.requestTimeout/);
    } finally {
      await hole.close();
    }
  });

  it('refuses a bad kubernetes: value in the CLI config with one line naming the key', async () => {
    const dir = tempDir('isvc-timeout-');
    const config = path.join(dir, 'config.yaml');
    writeFileSync(config, 'kubernetes:\n  qps: fast\n');
    const r = await runCliMain(main, [
      'diagnose',
      'sklearn-iris',
      '--snapshot',
      'test/scenarios/healthy-kserve',
      '--config',
      config,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/kubernetes\.qps: expected/);
  });
});

describe('kubernetes.qps / burst', () => {
  it('lets a burst through at once, then spaces requests 1/qps apart (the simulator request log)', async () => {
    const simulator = await startSimulator({ snapshot: await loadSnapshot('test/scenarios/healthy-kserve'), port: 0 });
    try {
      const qps = 10;
      const burst = 4;
      const kc = limitRequests(
        kubeConfigForServer(simulator.url),
        { timeoutMs: 0, qps, burst },
        new TokenBucket(qps, burst),
      );
      const reader = new ClusterReader(makeKubeClients(kc));
      // 12 distinct reads sent at once
      const sent = Date.now();
      await Promise.all(Array.from({ length: 12 }, (_, i) => reader.configMap('default', `cm-${i}`)));
      const at = simulator.requests.map((r) => r.at).sort((a, b) => a - b);
      expect(at).toHaveLength(12);
      // The bucket's exact schedule is pinned with an injected clock in test/unit/kube/token-bucket.test.ts;
      // here only that the client path goes through it: past the burst, the last of 12 requests cannot
      // reach the server sooner than (12 - burst) intervals after they were sent (a lower bound, which a
      // loaded machine only lengthens; measured from the send, not from the first arrival, whose own
      // latency on a busy machine would eat the margin; 10 ms of slack for the clocks' rounding).
      const interval = 1000 / qps;
      expect(at[at.length - 1]! - sent).toBeGreaterThanOrEqual((at.length - burst) * interval - 10);
    } finally {
      await simulator.close();
    }
  });
});
