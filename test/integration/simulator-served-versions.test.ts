/**
 * The simulator through client-node serves only the API groups the snapshot's cluster has, and each
 * object at every version its CRD serves, converted as the real webhook converts: KFServing 0.5
 * (v1alpha2 <-> v1beta1), Knative 0.14 (v1alpha1 <-> v1), Istio (one schema, several versions).
 */
import { describe, expect, it } from '@jest/globals';
import { ApisApi, PatchStrategy, setHeaderOptions, VersionApi, Watch } from '@kubernetes/client-node';
import { kubeConfigForServer, makeKubeClients } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import type { Snapshot } from '../../src/snapshot/load-snapshot.js';

const V1ALPHA2 = {
  apiVersion: 'serving.kubeflow.org/v1alpha2',
  kind: 'InferenceService',
  metadata: { name: 'sklearn-iris', namespace: 'default' },
  spec: {
    default: { predictor: { sklearn: { storageUri: 'gs://kfserving-samples/models/sklearn/iris' } } },
    canaryTrafficPercent: 20,
    canary: { predictor: { sklearn: { storageUri: 'gs://x/v2' } } },
  },
  status: {
    url: 'http://sklearn-iris.default.example.com',
    conditions: [{ type: 'Ready', status: 'True' }],
    default: {
      predictor: {
        name: 'sklearn-iris-predictor-default-8bp2x',
        host: 'sklearn-iris-predictor-default.default.example.com',
      },
    },
  },
};
const KUBEFLOW = { group: 'serving.kubeflow.org', namespace: 'default', plural: 'inferenceservices' };

function snapshot(objects: Record<string, unknown>[], cluster?: Snapshot['cluster']): Snapshot {
  return { dir: '/nonexistent', objects, logs: new Map(), deny: [], ...(cluster ? { cluster } : {}) };
}

async function withSimulator(s: Snapshot, run: (sim: RunningSimulator) => Promise<void>): Promise<void> {
  const sim = await startSimulator({ snapshot: s });
  try {
    await run(sim);
  } finally {
    await sim.close();
  }
}

describe('served versions', () => {
  it('serves a v1beta1 VirtualService under v1alpha3 and v1, with the apiVersion asked for', async () => {
    const vs = {
      apiVersion: 'networking.istio.io/v1beta1',
      kind: 'VirtualService',
      metadata: { name: 'sklearn-iris', namespace: 'default' },
      spec: { hosts: ['x'] },
    };
    await withSimulator(snapshot([vs], { istio: '1.22' }), async (sim) => {
      const api = makeKubeClients(kubeConfigForServer(sim.url)).custom;
      for (const version of ['v1alpha3', 'v1beta1', 'v1']) {
        const list = (await api.listNamespacedCustomObject({
          group: 'networking.istio.io',
          version,
          namespace: 'default',
          plural: 'virtualservices',
        })) as { items: Array<{ apiVersion: string; metadata: { name: string } }> };
        expect(list.items.map((o) => [o.apiVersion, o.metadata.name])).toEqual([
          [`networking.istio.io/${version}`, 'sklearn-iris'],
        ]);
      }
      // no KFServing in this cluster: its group is absent, not empty
      await expect(
        api.getNamespacedCustomObject({ ...KUBEFLOW, version: 'v1alpha2', name: 'sklearn-iris' }),
      ).rejects.toMatchObject({ code: 404 });
    });
  });

  it('a v1alpha2 snapshot on KFServing 0.5: read at v1beta1 as the webhook converts, written at v1alpha2, one object', async () => {
    await withSimulator(snapshot([V1ALPHA2], { kfserving: '0.5' }), async (sim) => {
      const { custom } = makeKubeClients(kubeConfigForServer(sim.url));
      const v1beta1 = (await custom.getNamespacedCustomObject({
        ...KUBEFLOW,
        version: 'v1beta1',
        name: 'sklearn-iris',
      })) as any;
      expect(v1beta1.apiVersion).toBe('serving.kubeflow.org/v1beta1');
      expect(v1beta1.spec).toEqual({
        predictor: { sklearn: { storageUri: 'gs://kfserving-samples/models/sklearn/iris' }, canaryTrafficPercent: 20 },
      });
      expect(v1beta1.status.components.predictor).toEqual({
        latestCreatedRevision: 'sklearn-iris-predictor-default-8bp2x',
        url: 'http://sklearn-iris-predictor-default.default.example.com',
      });
      await custom.patchNamespacedCustomObject(
        {
          ...KUBEFLOW,
          version: 'v1alpha2',
          name: 'sklearn-iris',
          body: { spec: { default: { predictor: { sklearn: { storageUri: 'gs://fixed' } } } } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      const list = (await custom.listNamespacedCustomObject({ ...KUBEFLOW, version: 'v1beta1' })) as any;
      expect(
        list.items.map((o: any) => [o.metadata.name, o.spec.predictor.sklearn.storageUri, o.metadata.generation]),
      ).toEqual([['sklearn-iris', 'gs://fixed', 2]]);
      const v1alpha2 = (await custom.getNamespacedCustomObject({
        ...KUBEFLOW,
        version: 'v1alpha2',
        name: 'sklearn-iris',
      })) as any;
      expect(v1alpha2.status.default.predictor.name).toBe('sklearn-iris-predictor-default-8bp2x');
      // the canary endpoint did not survive the conversion, as on a real KFServing 0.5
      expect(v1alpha2.spec.canary).toBeUndefined();
    });
  });

  it('a watch at one version sees a change made at another, converted', async () => {
    await withSimulator(snapshot([V1ALPHA2], { kfserving: '0.6' }), async (sim) => {
      const kubeConfig = kubeConfigForServer(sim.url);
      const events: { type: string; apiVersion: string; uri?: string }[] = [];
      const controller = await new Watch(kubeConfig).watch(
        '/apis/serving.kubeflow.org/v1alpha2/namespaces/default/inferenceservices',
        { resourceVersion: sim.store.resourceVersion },
        (type, o: any) =>
          events.push({ type, apiVersion: o.apiVersion, uri: o.spec?.default?.predictor?.sklearn?.storageUri }),
        () => undefined,
      );
      try {
        const current = sim.store.get('serving.kubeflow.org/v1beta1', 'InferenceService', 'default', 'sklearn-iris')!;
        sim.store.upsert({ ...current, spec: { predictor: { sklearn: { storageUri: 'gs://v1beta1-write' } } } });
        const deadline = Date.now() + 20_000;
        while (events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(events).toEqual([
          { type: 'MODIFIED', apiVersion: 'serving.kubeflow.org/v1alpha2', uri: 'gs://v1beta1-write' },
        ]);
      } finally {
        controller.abort();
      }
    });
  });

  it('only the groups the cluster has are discovered; absent ones are 404; /version follows cluster.yaml', async () => {
    await withSimulator(snapshot([V1ALPHA2], { kubernetes: '1.18' }), async (sim) => {
      const kubeConfig = kubeConfigForServer(sim.url);
      const groups = await kubeConfig.makeApiClient(ApisApi).getAPIVersions();
      const kubeflow = groups.groups.find((g) => g.name === 'serving.kubeflow.org');
      expect(kubeflow?.versions.map((v) => v.version)).toEqual(['v1alpha2']);
      expect(groups.groups.map((g) => g.name)).not.toContain('serving.kserve.io');
      const networkingV1 = (await (await fetch(`${sim.url}/apis/networking.k8s.io/v1`)).json()) as {
        resources: { name: string }[];
      };
      expect(networkingV1.resources.map((r) => r.name)).toEqual(['networkpolicies']); // Ingress is v1beta1 only before 1.19
      expect((await kubeConfig.makeApiClient(VersionApi).getCode()).gitVersion).toBe('v1.18.0');
      const { custom } = makeKubeClients(kubeConfig);
      await expect(
        custom.listClusterCustomObject({ group: 'serving.kserve.io', version: 'v1beta1', plural: 'inferenceservices' }),
      ).rejects.toMatchObject({ code: 404 });
      const response = await fetch(`${sim.url}/apis/serving.kserve.io`);
      expect(response.status).toBe(404);
    });
  });

  it('Knative v1alpha1 objects on Knative 0.14 are read at v1 in the v1 shape', async () => {
    const ksvc = {
      apiVersion: 'serving.knative.dev/v1alpha1',
      kind: 'Service',
      metadata: { name: 'flowers-predictor-default', namespace: 'default' },
      spec: {
        runLatest: { configuration: { revisionTemplate: { spec: { container: { image: 'tfserving:1.14' } } } } },
      },
      status: { conditions: [{ type: 'Ready', status: 'False', reason: 'RevisionMissing' }] },
    };
    await withSimulator(snapshot([ksvc], { knative: '0.14' }), async (sim) => {
      const { custom } = makeKubeClients(kubeConfigForServer(sim.url));
      const v1 = (await custom.getNamespacedCustomObject({
        group: 'serving.knative.dev',
        version: 'v1',
        namespace: 'default',
        plural: 'services',
        name: 'flowers-predictor-default',
      })) as any;
      expect(v1.spec).toEqual({
        template: { spec: { containers: [{ image: 'tfserving:1.14' }] } },
        traffic: [{ percent: 100, latestRevision: true }],
      });
      expect(v1.status.conditions[0].reason).toBe('RevisionMissing');
    });
  });

  it('refuses a snapshot whose objects its cluster.yaml contradicts, naming the file and key', async () => {
    await expect(
      startSimulator({ snapshot: snapshot([V1ALPHA2], { kserve: '0.11', apiGroups: ['serving.kserve.io'] }) }),
    ).rejects.toThrow(
      '/nonexistent/cluster.yaml: `apiGroups`: does not list serving.kubeflow.org, which InferenceService default/sklearn-iris in objects.yaml needs',
    );
  });
});
