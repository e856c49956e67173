/**
 * The RawDeployment Ingress at a beta version the cluster no longer serves (Kubernetes 1.22 removed
 * networking.k8s.io/v1beta1 and extensions/v1beta1), read by the mechanism that reads the v1 Ingress
 * on Kubernetes 1.18: the version the controller's refusal names against the versions discovery
 * serves. The 1.18 snapshot is turned around (a 1.22 cluster, a controller that writes v1beta1), so
 * the step must come from discovery and the refusal, not from either scenario's strings.
 */
import { describe, expect, it } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import type { Report } from '../../../src/findings/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import { startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot, type Snapshot } from '../../../src/snapshot/load-snapshot.js';

const target = { namespace: 'kserve-test', name: 'sklearn-iris' };

async function reportOf(change: (s: Snapshot) => void): Promise<Report> {
  const snapshot = await loadSnapshot('test/scenarios/version-rawdeployment-ingress-v1-k8s-1-18');
  change(snapshot);
  const simulator = await startSimulator({ snapshot, port: 0 });
  try {
    return await diagnose(kubeConfigForServer(simulator.url), target, { now: () => new Date('2021-10-21T00:00:00Z') });
  } finally {
    await simulator.close();
  }
}

/** The controller's refusal rewritten to name `version`, on a cluster of Kubernetes `kubernetes`. */
const writes = (version: string, kubernetes: string) => (s: Snapshot) => {
  s.cluster = { ...s.cluster, kubernetes };
  for (const [key, text] of s.logs)
    s.logs.set(key, text.replaceAll('in version \\"networking.k8s.io/v1\\"', `in version \\"${version}\\"`));
};

describe('RawDeployment Ingress at a version Kubernetes 1.22 removed', () => {
  it('names the served v1, the release that writes it and disableIngressCreation for networking.k8s.io/v1beta1', async () => {
    const report = await reportOf(writes('networking.k8s.io/v1beta1', '1.22'));
    const root = report.findings[0]!;
    expect(root.code).toBe('RAW_INGRESS_NOT_CREATED');
    expect(root.title).toContain('networking.k8s.io/v1beta1');
    expect(root.next).toContain('only at networking.k8s.io/v1');
    expect(root.next).toContain('Kubernetes 1.22+');
    expect(root.next).toContain('(0.7+)');
    expect(root.next).toContain("KServe 0.7's released controller image");
    expect(root.next).not.toContain('1.19+');
    // KServe 0.7 has no disableIngressCreation: the way out names the release that reads it
    expect(root.next).toContain('KServe 0.12+');
    expect(root.next).toContain('"disableIngressCreation": true');
  });

  it('names the removed group for extensions/v1beta1', async () => {
    const report = await reportOf(writes('extensions/v1beta1', '1.22'));
    const root = report.findings[0]!;
    expect(root.code).toBe('RAW_INGRESS_NOT_CREATED');
    expect(root.next).toContain('does not serve Ingress at extensions/v1beta1');
    expect(root.next).toContain('networking.k8s.io/v1');
  });
});
