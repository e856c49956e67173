/**
 * Paged lists through client-node, as kube-apiserver pages them: limit / continue, remainingItemCount,
 * pages that stay consistent with the first while objects change, selectors, and 410 Expired for a
 * token whose resourceVersion the history no longer reaches.
 */
import { describe, expect, it } from '@jest/globals';
import { kubeConfigForServer, makeKubeClients, type KubeClients } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';

const configMap = (name: string, namespace: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, labels },
  data: { v: '1' },
});
const OBJECTS = [
  configMap('a', 'ns1', { tier: 'model' }),
  configMap('b', 'ns1'),
  configMap('c', 'ns1', { tier: 'model' }),
  configMap('d', 'ns1'),
  configMap('e', 'ns1', { tier: 'model' }),
  configMap('a', 'ns2'),
];

async function withSimulator(run: (sim: RunningSimulator, kube: KubeClients) => Promise<void>): Promise<void> {
  const sim = await startSimulator({ snapshot: { dir: '/nonexistent', objects: OBJECTS, logs: new Map(), deny: [] } });
  try {
    await run(sim, makeKubeClients(kubeConfigForServer(sim.url)));
  } finally {
    await sim.close();
  }
}

async function failure(call: Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await call;
  } catch (error) {
    const e = error as { code?: number; body?: unknown };
    return { code: e.code ?? -1, body: typeof e.body === 'string' ? JSON.parse(e.body) : e.body };
  }
  throw new Error('expected the call to fail');
}

describe('paged lists', () => {
  it('pages a namespace two at a time with continue tokens and remainingItemCount', async () => {
    await withSimulator(async (_sim, kube) => {
      const first = await kube.core.listNamespacedConfigMap({ namespace: 'ns1', limit: 2 });
      expect(first.items.map((i) => i.metadata?.name)).toEqual(['a', 'b']);
      expect(first.metadata?.remainingItemCount).toBe(3);
      const second = await kube.core.listNamespacedConfigMap({
        namespace: 'ns1',
        limit: 2,
        _continue: first.metadata!._continue!,
      });
      expect(second.items.map((i) => i.metadata?.name)).toEqual(['c', 'd']);
      const last = await kube.core.listNamespacedConfigMap({
        namespace: 'ns1',
        limit: 2,
        _continue: second.metadata!._continue!,
      });
      expect(last.items.map((i) => i.metadata?.name)).toEqual(['e']);
      expect(last.metadata?._continue).toBeUndefined();
      expect(last.metadata?.remainingItemCount).toBeUndefined();
      expect(new Set([first, second, last].map((p) => p.metadata?.resourceVersion)).size).toBe(1);
    });
  });

  it('keeps later pages consistent with the first while objects change', async () => {
    await withSimulator(async (sim, kube) => {
      const first = await kube.core.listConfigMapForAllNamespaces({ limit: 3 });
      expect(first.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`)).toEqual([
        'ns1/a',
        'ns1/b',
        'ns1/c',
      ]);
      sim.store.delete('v1', 'ConfigMap', 'ns1', 'd');
      sim.store.upsert(configMap('f', 'ns1'));
      sim.store.upsert({ ...configMap('e', 'ns1'), data: { v: '2' } });
      const rest = await kube.core.listConfigMapForAllNamespaces({ limit: 10, _continue: first.metadata!._continue! });
      expect(rest.items.map((i) => [`${i.metadata?.namespace}/${i.metadata?.name}`, i.data?.v])).toEqual([
        ['ns1/d', '1'],
        ['ns1/e', '1'],
        ['ns2/a', '1'],
      ]);
      expect(rest.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
      const fresh = await kube.core.listConfigMapForAllNamespaces({});
      expect(fresh.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`)).toEqual([
        'ns1/a',
        'ns1/b',
        'ns1/c',
        'ns1/e',
        'ns1/f',
        'ns2/a',
      ]);
    });
  });

  it('applies selectors within pages and leaves out remainingItemCount when it filters', async () => {
    await withSimulator(async (_sim, kube) => {
      const first = await kube.core.listNamespacedConfigMap({
        namespace: 'ns1',
        labelSelector: 'tier=model',
        limit: 2,
      });
      expect(first.items.map((i) => i.metadata?.name)).toEqual(['a', 'c']);
      expect(first.metadata?.remainingItemCount).toBeUndefined();
      const rest = await kube.core.listNamespacedConfigMap({
        namespace: 'ns1',
        labelSelector: 'tier=model',
        limit: 2,
        _continue: first.metadata!._continue!,
      });
      expect(rest.items.map((i) => i.metadata?.name)).toEqual(['e']);
    });
  });

  it('answers 410 Expired with a fresh token once the history is compacted, 400 for a token that does not decode', async () => {
    await withSimulator(async (sim, kube) => {
      const first = await kube.core.listNamespacedConfigMap({ namespace: 'ns1', limit: 2 });
      sim.store.upsert(configMap('z', 'ns1'));
      sim.store.compact();
      const expired = await failure(
        kube.core.listNamespacedConfigMap({ namespace: 'ns1', limit: 2, _continue: first.metadata!._continue! }),
      );
      expect(expired).toMatchObject({ code: 410, body: { kind: 'Status', reason: 'Expired', code: 410 } });
      expect(expired.body.message).toMatch(/^The provided continue parameter is too old/);
      const resumed = await kube.core.listNamespacedConfigMap({
        namespace: 'ns1',
        _continue: expired.body.metadata.continue,
      });
      expect(resumed.items.map((i) => i.metadata?.name)).toEqual(['c', 'd', 'e', 'z']);
      const bad = await failure(kube.core.listNamespacedConfigMap({ namespace: 'ns1', _continue: 'not-a-token' }));
      expect(bad).toMatchObject({ code: 400, body: { reason: 'BadRequest' } });
      expect(bad.body.message).toMatch(/^invalid continue token/);
    });
  });
});
