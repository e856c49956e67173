/** The runner: one playbook's failure never hides another's results; a ready service gets ISVC_READY only when nothing is wrong. */
import { describe, expect, it } from '@jest/globals';
import type { Playbook } from '../../src/diagnosis/playbook.js';
import { runDiagnosis } from '../../src/diagnosis/run-diagnosis.js';
import { finding } from '../../src/findings/finding.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { ClusterUnreachableError } from '../../src/kube/errors.js';
import { startSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';

const failing = (id: string, error: Error): Playbook => ({
  id,
  title: id,
  emits: [],
  run: async () => Promise.reject(error),
});
const finds = (id: string): Playbook => ({
  id,
  title: id,
  emits: ['TRAFFIC_SPLIT'],
  run: async (ctx) => [finding('TRAFFIC_SPLIT', { subject: ctx.target.name, title: 'split' })],
});

async function withHealthy<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const simulator = await startSimulator({ snapshot: await loadSnapshot('test/scenarios/healthy-kserve'), port: 0 });
  try {
    return await fn(simulator.url);
  } finally {
    await simulator.close();
  }
}

describe('diagnose runner', () => {
  it('reports a check that could not run next to the others, and no clean bill', async () => {
    const report = await withHealthy((url) =>
      runDiagnosis(
        [
          failing('broken', new ClusterUnreachableError('the Kubernetes API answered 503')),
          failing('buggy', new Error('boom')),
          finds('fine'),
        ],
        kubeConfigForServer(url),
        {
          namespace: 'default',
          name: 'sklearn-iris',
        },
      ),
    );
    const codes = report.findings.map((f) => f.code);
    expect(codes).toContain('TRAFFIC_SPLIT');
    expect(codes.filter((c) => c === 'CLUSTER_UNREACHABLE')).toHaveLength(2);
    expect(codes).not.toContain('ISVC_READY');
    expect(report.findings.find((f) => f.code === 'CLUSTER_UNREACHABLE')!.title).toMatch(/could not run/);
  });

  it('gives a ready service with nothing wrong ISVC_READY first and rootCause null', async () => {
    const report = await withHealthy((url) =>
      runDiagnosis([finds('fine')], kubeConfigForServer(url), { namespace: 'default', name: 'sklearn-iris' }),
    );
    expect(report.ready).toBe(true);
    expect(report.rootCause).toBeNull();
    expect(report.findings.map((f) => f.code)).toEqual(['ISVC_READY', 'TRAFFIC_SPLIT']);
  });

  it('throws ClusterUnreachableError when the InferenceService itself cannot be read', async () => {
    const url = await withHealthy(async (u) => u); // closed by now
    await expect(
      runDiagnosis([], kubeConfigForServer(url), { namespace: 'default', name: 'sklearn-iris' }),
    ).rejects.toBeInstanceOf(ClusterUnreachableError);
  });
});
