/** cluster.yaml: releases kept as written (0.10 is not 0.1), apiGroups, and one-line errors naming the file and the key. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSnapshot, SnapshotError } from '../../../src/snapshot/load-snapshot.js';
import { parseClusterFile } from '../../../src/snapshot/parse-cluster-file.js';

const FILE = '/snap/cluster.yaml';

function errorOf(text: string): string {
  try {
    parseClusterFile(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(SnapshotError);
    return (error as Error).message;
  }
  throw new Error('expected a SnapshotError');
}

describe('parseClusterFile', () => {
  it('reads releases as written and the API group list', () => {
    const parsed = parseClusterFile(
      'kserve: 0.10\nknative: v0.14.2\nistio: 1.9\nkubernetes: "1.20"\napiGroups: [serving.kubeflow.org/v1alpha2, networking.istio.io]\n',
      FILE,
    );
    expect(parsed).toEqual({
      kserve: '0.10',
      knative: 'v0.14.2',
      istio: '1.9',
      kubernetes: '1.20',
      apiGroups: ['serving.kubeflow.org/v1alpha2', 'networking.istio.io'],
    });
    expect(parseClusterFile('# nothing stated\n', FILE)).toEqual({});
  });

  it.each([
    [
      'kserv: 0.7\n',
      '/snap/cluster.yaml: `kserv`: unknown key (known: kubernetes, kserve, kfserving, knative, istio, gatewayApi, inferenceExtension, lws, keda, apiGroups)',
    ],
    ['kserve: latest\n', '/snap/cluster.yaml: `kserve`: expected a release such as 0.11 or 1.9 (got "latest")'],
    ['knative: [0.14]\n', '/snap/cluster.yaml: `knative`: expected a release such as 0.11'],
    ['apiGroups: serving.kserve.io\n', '/snap/cluster.yaml: `apiGroups`: expected a list (got "serving.kserve.io")'],
    [
      'apiGroups: [Serving/V1]\n',
      '/snap/cluster.yaml: `apiGroups[0]`: expected an API group or group/version such as serving.kserve.io or serving.kubeflow.org/v1alpha2 (got "Serving/V1")',
    ],
    ['- kserve\n', '/snap/cluster.yaml: `(top level)`: expected a mapping of keys such as kserve: 0.11'],
  ])('rejects %j with one line naming the file and key', (text, message) => {
    const got = errorOf(text);
    expect(got).toBe(message);
    expect(got).not.toContain('\n');
  });

  it('is read by loadSnapshot, and a bad one stops the load', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cluster-file-'));
    try {
      await writeFile(path.join(dir, 'objects.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
      await writeFile(path.join(dir, 'cluster.yaml'), 'kfserving: 0.5\n');
      expect((await loadSnapshot(dir)).cluster).toEqual({ kfserving: '0.5' });
      await writeFile(path.join(dir, 'cluster.yaml'), 'istio: [\n');
      await expect(loadSnapshot(dir)).rejects.toThrow(new RegExp(`^${path.join(dir, 'cluster.yaml')}:2: `));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
