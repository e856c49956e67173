/**
 * A RawDeployment service's Ingress that no ingress controller serves, read from the Ingress (its
 * class, its empty load-balancer status) against the cluster's IngressClasses: the scenario's
 * snapshot (an Ingress asking for IngressClass istio, none defined) varied one fact at a time.
 */
import { describe, expect, it } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import type { Report } from '../../../src/findings/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import { startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot, type Snapshot } from '../../../src/snapshot/load-snapshot.js';

interface Obj {
  kind?: string;
  metadata?: Record<string, unknown>;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}
const target = { namespace: 'kserve-test', name: 'sklearn-iris' };

async function reportWith(change: (objects: Obj[]) => Obj[]): Promise<Report> {
  const snapshot: Snapshot = await loadSnapshot('test/scenarios/raw-ingress-class-istio-not-created-kserve-0-11');
  const simulator = await startSimulator({
    snapshot: { ...snapshot, objects: change(structuredClone(snapshot.objects) as Obj[]) },
    port: 0,
  });
  try {
    return await diagnose(kubeConfigForServer(simulator.url), target, { now: () => new Date('2024-06-01T00:00:00Z') });
  } finally {
    await simulator.close();
  }
}

const ingressClass = (name: string, isDefault = false): Obj => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: {
    name,
    ...(isDefault ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } } : {}),
  },
  spec: { controller: name === 'nginx' ? 'k8s.io/ingress-nginx' : 'istio.io/ingress-controller' },
});
const ingressOf = (objects: Obj[]) => objects.find((o) => o.kind === 'Ingress')!;
const codes = (r: Report) => r.findings.map((f) => f.code);

describe('an Ingress no controller serves', () => {
  it('names the class it asks for, the classes there are and the config key', async () => {
    const report = await reportWith((objects) => [...objects, ingressClass('nginx')]);
    const root = report.findings[0]!;
    expect(root.code).toBe('RAW_INGRESS_NO_CLASS');
    expect(root.next).toContain('No IngressClass istio exists');
    expect(root.next).toContain('nginx');
    expect(root.next).toContain('kubectl edit configmap inferenceservice-config -n kserve');
    expect(root.evidence.map((e) => e.text)).toContain('data.ingress: "ingressClassName": "istio"');
  });

  it('says nothing when the class it asks for exists', async () => {
    const report = await reportWith((objects) => [...objects, ingressClass('istio')]);
    expect(codes(report)).not.toContain('RAW_INGRESS_NO_CLASS');
  });

  it('says nothing when a controller gave it an address', async () => {
    const report = await reportWith((objects) => {
      ingressOf(objects).status = { loadBalancer: { ingress: [{ ip: '172.18.0.10' }] } };
      return objects;
    });
    expect(codes(report)).not.toContain('RAW_INGRESS_NO_CLASS');
  });

  it('without a class: a finding only when no IngressClass is marked default', async () => {
    const classless = (objects: Obj[]) => {
      delete ingressOf(objects).spec?.ingressClassName;
      return objects;
    };
    const none = await reportWith((objects) => [...classless(objects), ingressClass('nginx')]);
    expect(none.findings[0]!.code).toBe('RAW_INGRESS_NO_CLASS');
    expect(none.findings[0]!.next).toContain('ingressclass.kubernetes.io/is-default-class');
    const withDefault = await reportWith((objects) => [...classless(objects), ingressClass('nginx', true)]);
    expect(codes(withDefault)).not.toContain('RAW_INGRESS_NO_CLASS');
  });
});
