/**
 * Request-flow hops missing because a hop they depend on failed are consequences, not faults: the
 * routes Knative and KServe make only once the revision (or the predictor) is ready, and the pods of
 * a revision that never became ready. The hop that failed first stays the fault.
 */
import { describe, expect, it } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import type { Evidence } from '../../../src/findings/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import { startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

async function hopsOf(dir: string, target: { namespace: string; name: string }): Promise<Evidence[]> {
  const simulator = await startSimulator({ snapshot: await loadSnapshot(`test/scenarios/${dir}`), port: 0 });
  try {
    const report = await diagnose(kubeConfigForServer(simulator.url), target, {
      now: () => new Date('2024-06-01T00:00:00Z'),
    });
    return report.findings.find((f) => f.code === 'REQUEST_FLOW')?.evidence ?? [];
  } finally {
    await simulator.close();
  }
}

const faults = (hops: Evidence[]) => hops.filter((h) => h.state !== 'ok' && !h.consequence).map((h) => h.ref);

describe('request-flow consequences', () => {
  it('Serverless: routes and pods a revision that never became ready did not make are consequences', async () => {
    const hops = await hopsOf('ecr-tag-resolution-401', { namespace: 'ml-prod', name: 'my-model' });
    expect(faults(hops)).toEqual(['Service ml-prod/my-model-predictor-default-00001']);
    const pods = hops.find((h) => h.ref.startsWith('Pods '))!;
    expect(pods).toMatchObject({ state: 'missing', consequence: true });
    expect(pods.text).toContain(
      'not made, the revision my-model-predictor-default-00001 never became ready (ContainerMissing)',
    );
    expect(hops.filter((h) => h.ref.startsWith('VirtualService ')).every((h) => h.consequence)).toBe(true);
  });

  it('RawDeployment: no Ingress while the predictor is unready is a consequence', async () => {
    const hops = await hopsOf('raw-deployment-oom', { namespace: 'payments-ml', name: 'fraud-lgbm' });
    expect(hops[0]).toMatchObject({ ref: 'Ingress payments-ml/fraud-lgbm', state: 'missing', consequence: true });
    expect(faults(hops)).toEqual(['Deployment payments-ml/fraud-lgbm-predictor', 'Pods payments-ml/fraud-lgbm']);
  });

  it('RawDeployment: no Ingress over an available Deployment stays the fault', async () => {
    const hops = await hopsOf('version-rawdeployment-ingress-v1-k8s-1-18', {
      namespace: 'kserve-test',
      name: 'sklearn-iris',
    });
    expect(faults(hops)).toEqual(['Ingress kserve-test/sklearn-iris']);
  });
});
