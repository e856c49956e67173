/** Istio objects are served under every version a real cluster serves them (v1alpha3, v1beta1, v1). */
import { describe, expect, it } from '@jest/globals';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { startSimulator } from '../../src/simulator/simulator.js';

describe('served versions', () => {
  it('serves a v1beta1 VirtualService under v1alpha3 and v1, with the apiVersion asked for', async () => {
    const simulator = await startSimulator({
      snapshot: {
        dir: '(memory)',
        objects: [{ apiVersion: 'networking.istio.io/v1beta1', kind: 'VirtualService', metadata: { name: 'sklearn-iris', namespace: 'default' }, spec: { hosts: ['x'] } }],
        logs: new Map(),
        deny: [],
      },
      port: 0,
    });
    try {
      const api = kubeConfigForServer(simulator.url).makeApiClient(CustomObjectsApi);
      for (const version of ['v1alpha3', 'v1beta1', 'v1']) {
        const list = (await api.listNamespacedCustomObject({ group: 'networking.istio.io', version, namespace: 'default', plural: 'virtualservices' })) as {
          items: Array<{ apiVersion: string; metadata: { name: string } }>;
        };
        expect(list.items.map((o) => [o.apiVersion, o.metadata.name])).toEqual([[`networking.istio.io/${version}`, 'sklearn-iris']]);
      }
      // InferenceService versions are different schemas: not shared
      await expect(api.getNamespacedCustomObject({ group: 'serving.kubeflow.org', version: 'v1alpha2', namespace: 'default', plural: 'inferenceservices', name: 'sklearn-iris' })).rejects.toMatchObject({ code: 404 });
    } finally {
      await simulator.close();
    }
  });
});
