/** The status list reads InferenceServices a page at a time (limit / continue), in one namespace or all of them. */
import { KubeConfig } from '@kubernetes/client-node';
import net from 'node:net';
import { listIsvcStatus } from '../../src/diagnosis/list-isvc-status.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { KubeTimeoutError } from '../../src/kube/errors.js';
import { limitRequests } from '../../src/kube/request-limits.js';
import { freePort } from '../support/redis-server.js';
import { removeTempDirs } from '../support/temp-dirs.js';
import { startTwoNamespaceCluster, type TwoNamespaceCluster } from '../support/two-namespace-cluster.js';

let cluster: TwoNamespaceCluster;
let kc: KubeConfig;
beforeAll(async () => {
  cluster = await startTwoNamespaceCluster();
  kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
});
afterAll(async () => {
  await cluster?.close();
  removeTempDirs();
});

const isvcLists = () =>
  cluster.sim.requests.filter(
    (r) => r.verb === 'list' && r.resource === 'inferenceservices' && r.group === 'serving.kserve.io',
  );

it('lists every namespace page by page, following continue tokens to the end', async () => {
  cluster.sim.requests.length = 0;
  const rows = await listIsvcStatus(kc, null, { pageSize: 1 });
  expect(rows.map((r) => `${r.namespace}/${r.name}`).sort()).toEqual([
    'default/sklearn-iris',
    'default/sklearn-iris-v2',
    'payments-ml/fraud-lgbm',
  ]);
  expect(rows.find((r) => r.name === 'fraud-lgbm')).toEqual(
    expect.objectContaining({ ready: false, apiVersion: 'serving.kserve.io/v1beta1' }),
  );
  const lists = isvcLists();
  expect(lists.map((r) => r.namespace)).toEqual([undefined, undefined, undefined]);
  expect(lists.map((r) => r.query.limit)).toEqual(['1', '1', '1']);
  expect(lists.map((r) => Boolean(r.query.continue))).toEqual([false, true, true]);
});

it('lists one namespace in pages of 250 by default', async () => {
  cluster.sim.requests.length = 0;
  expect((await listIsvcStatus(kc, 'default')).map((r) => r.name)).toEqual(['sklearn-iris', 'sklearn-iris-v2']);
  expect(isvcLists().map((r) => [r.namespace, r.query.limit])).toEqual([['default', '250']]);
});

it('lists only the InferenceService versions the cluster serves (discovery)', async () => {
  cluster.sim.requests.length = 0;
  await listIsvcStatus(kc, 'default');
  const served = new Set(
    (
      (await (await fetch(`${cluster.sim.url}/apis`)).json()) as {
        groups: Array<{ versions: Array<{ groupVersion: string }> }>;
      }
    ).groups.flatMap((g) => g.versions.map((v) => v.groupVersion)),
  );
  const listed = cluster.sim.requests
    .filter((r) => r.verb === 'list' && r.resource === 'inferenceservices')
    .map((r) => `${r.group}/${r.version}`);
  expect(listed.length).toBeGreaterThan(0);
  expect(listed.filter((gv) => !served.has(gv))).toEqual([]);
});

describe('an API server that gives no answer', () => {
  it('black-holed: gives up once discovery goes unanswered, asking no list after it', async () => {
    let connections = 0;
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      connections += 1;
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const black = limitRequests(kubeConfigForServer(`http://127.0.0.1:${port}`), {
        timeoutMs: 300,
        qps: 0,
        burst: 100,
      });
      const error = await listIsvcStatus(black, 'default').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KubeTimeoutError);
      expect((error as Error).message).toContain('discovery');
      // discovery's one connection: no list waited out the same silence after it
      expect(connections).toBe(1);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("refused: says so, with the socket's reason", async () => {
    const refused = limitRequests(kubeConfigForServer(`http://127.0.0.1:${await freePort()}`), {
      timeoutMs: 2000,
      qps: 0,
      burst: 100,
    });
    await expect(listIsvcStatus(refused, 'default')).rejects.toThrow(/ECONNREFUSED/);
  });
});
