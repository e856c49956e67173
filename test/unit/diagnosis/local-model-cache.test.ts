/**
 * The local-model-cache playbook on the disk-full scenario and its variations: the cache's state for
 * the node the pod runs on decides (failed, still downloading, downloaded there, or a service that
 * the cache does not serve), and the next step names that node, the cache and where its Jobs run.
 */
import { describe, expect, it } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import type { Report } from '../../../src/findings/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import { startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot, type Snapshot } from '../../../src/snapshot/load-snapshot.js';

const DIR = 'test/scenarios/local-model-cache-node-download-error-disk-full';
const TARGET = { namespace: 'llm', name: 'llama3-8b' };

type Obj = {
  kind?: string;
  apiVersion?: string;
  data?: Record<string, string>;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  status?: Record<string, unknown>;
};

async function diagnoseVariant(change: (objects: Obj[]) => void): Promise<Report> {
  const snapshot: Snapshot = await loadSnapshot(DIR);
  change(snapshot.objects as Obj[]);
  const simulator = await startSimulator({ snapshot, port: 0 });
  try {
    return await diagnose(kubeConfigForServer(simulator.url), TARGET, { now: () => new Date('2026-09-04T09:00:00Z') });
  } finally {
    await simulator.close();
  }
}

const cacheOf = (objects: Obj[]) => objects.find((o) => o.kind === 'LocalModelCache') as Obj;
const setNodeStatus = (objects: Obj[], state: string) => {
  const cache = cacheOf(objects);
  cache.status = { ...cache.status, nodeStatus: { 'gpu-node-1': 'NodeDownloaded', 'gpu-node-2': state } };
};

describe('local-model-cache playbook', () => {
  it('names the failed node, the cache and its download Jobs as the root cause', async () => {
    const report = await diagnoseVariant(() => {});
    const root = report.findings[0]!;
    expect(root.code).toBe('LOCAL_MODEL_NOT_CACHED');
    expect(root.subject).toBe('Pod llm/llama3-8b-predictor-7c9d5f6b8d-x2k4p');
    expect(root.evidence.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('status.nodeStatus.gpu-node-2: NodeDownloadError'),
        'status.modelStatus.meta-llama3-8b-instruct: ModelDownloadError',
      ]),
    );
    expect(root.next).toContain('-l model=meta-llama3-8b-instruct,node=gpu-node-2');
    expect(root.next).toContain('kubectl delete jobs -n kserve-localmodel-jobs');
    expect(root.next).toContain('downloaded on gpu-node-1');
    // the model file the runtime misses is a consequence, not a path to fix
    expect(report.findings.find((f) => f.code === 'MODEL_FILE_MISSING')).toBeDefined();
    expect(report.findings.some((f) => f.code === 'STORAGE_INITIALIZER_NOT_INJECTED')).toBe(false);
  });

  it('says to wait while the node is still downloading', async () => {
    const report = await diagnoseVariant((objects) => setNodeStatus(objects, 'NodeDownloading'));
    const root = report.findings[0]!;
    expect(root.code).toBe('LOCAL_MODEL_NOT_CACHED');
    expect(root.title).toMatch(
      /not downloaded onto node gpu-node-2 yet \(LocalModelCache meta-llama3-8b-instruct: NodeDownloading\)/,
    );
    expect(root.next).toMatch(/wait for the download to finish/);
    expect(root.next).not.toContain('delete jobs');
  });

  it('finds nothing when the pod runs on a node that has the model', async () => {
    const report = await diagnoseVariant((objects) => setNodeStatus(objects, 'NodeDownloaded'));
    expect(report.findings.map((f) => f.code)).not.toContain('LOCAL_MODEL_NOT_CACHED');
  });

  it('names the Jobs namespace inferenceservice-config sets', async () => {
    const report = await diagnoseVariant((objects) => {
      objects.push({
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { name: 'inferenceservice-config', namespace: 'kserve' },
        data: { localModel: JSON.stringify({ enabled: true, jobNamespace: 'model-jobs' }) },
      } as Obj);
    });
    const root = report.findings[0]!;
    expect(root.next).toContain('kubectl delete jobs -n model-jobs -l model=meta-llama3-8b-instruct,node=gpu-node-2');
    expect(root.next).not.toContain('kserve-localmodel-jobs');
  });

  it('reads no cache for a service the cache does not serve', async () => {
    const report = await diagnoseVariant((objects) => {
      for (const o of objects) delete o.metadata?.labels?.['internal.serving.kserve.io/localmodel'];
    });
    expect(report.findings.map((f) => f.code)).not.toContain('LOCAL_MODEL_NOT_CACHED');
  });
});
