/**
 * local-model-cache on an InferenceService KServe's defaulter labelled with a LocalModelCache: the
 * cache's per-node state for the node each pod runs on decides. A node whose download failed (with
 * the LocalModelNode's own word) or has not finished gets a finding on the pod there; a pod not yet
 * scheduled gets one only while no node of the group has the model. A pod on a node that has it, and
 * a service served by no cache, are left alone.
 */
import { describe, expect, it } from '@jest/globals';
import type { Report } from '../src/findings/types.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { localModelCache } from './local-model-cache.js';

const NS = 'llm';
const TARGET = { namespace: NS, name: 'llama3-8b' };
const CACHE = 'meta-llama3-8b-instruct';
const SOURCE = 'hf://meta-llama/meta-llama-3-8b-instruct';

function isvc(cached = true) {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: {
      name: 'llama3-8b',
      namespace: NS,
      generation: 1,
      ...(cached
        ? {
            labels: { 'internal.serving.kserve.io/localmodel': CACHE },
            annotations: { 'internal.serving.kserve.io/localmodel-pvc-name': `${CACHE}-gpu-workers` },
          }
        : {}),
    },
    spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, storageUri: SOURCE } } },
    status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'False' }] },
  };
}

function cache(nodeStatus: Record<string, string>) {
  return {
    apiVersion: 'serving.kserve.io/v1alpha1',
    kind: 'LocalModelCache',
    metadata: { name: CACHE },
    spec: { modelSize: '16Gi', nodeGroups: ['gpu-workers'], sourceModelUri: SOURCE },
    status: { nodeStatus },
  };
}

const localNode = (name: string, state: string) => ({
  apiVersion: 'serving.kserve.io/v1alpha1',
  kind: 'LocalModelNode',
  metadata: { name },
  spec: { localModels: [{ modelName: CACHE, nodeGroup: 'gpu-workers', sourceModelUri: SOURCE }] },
  status: { modelStatus: { [CACHE]: state } },
});

function pod(name: string, node?: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NS,
      labels: { 'serving.kserve.io/inferenceservice': 'llama3-8b', component: 'predictor' },
    },
    spec: {
      ...(node ? { nodeName: node } : {}),
      containers: [{ name: 'kserve-container', image: 'kserve/huggingfaceserver:v0.15.0' }],
    },
    status: { phase: node ? 'Running' : 'Pending' },
  };
}

const codes = (r: Report) => r.findings.filter((f) => f.code === 'LOCAL_MODEL_NOT_CACHED');

describe('local-model-cache', () => {
  it("a pod on a node whose download failed: the cache's and the node's own state, on that pod only", async () => {
    const { report } = await runPlaybook(
      localModelCache,
      [
        isvc(),
        cache({ 'gpu-node-1': 'NodeDownloaded', 'gpu-node-2': 'NodeDownloadError' }),
        localNode('gpu-node-1', 'ModelDownloaded'),
        localNode('gpu-node-2', 'ModelDownloadError'),
        pod('llama3-8b-predictor-a', 'gpu-node-1'),
        pod('llama3-8b-predictor-b', 'gpu-node-2'),
      ],
      TARGET,
    );
    const found = codes(report);
    expect(found).toHaveLength(1);
    const f = found[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: `Pod ${NS}/llama3-8b-predictor-b` });
    expect(f.title).toContain('failed');
    expect(f.evidence.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('status.nodeStatus.gpu-node-2: NodeDownloadError'),
        `status.modelStatus.${CACHE}: ModelDownloadError`,
      ]),
    );
    // the Jobs to read, then the pod re-created where the model is
    expect(f.next).toContain('kubectl get jobs,pods');
    expect(f.next).toContain('it is downloaded on gpu-node-1');
  });

  it('a pod on a node still downloading: not downloaded yet', async () => {
    const { report } = await runPlaybook(
      localModelCache,
      [isvc(), cache({ 'gpu-node-2': 'NodeDownloading' }), pod('llama3-8b-predictor-b', 'gpu-node-2')],
      TARGET,
    );
    const [f] = codes(report);
    expect(f!.title).toContain('is not downloaded onto node gpu-node-2 yet');
    expect(f!.evidence.map((e) => e.text)).toContainEqual(
      expect.stringContaining('status.nodeStatus.gpu-node-2: NodeDownloading'),
    );
  });

  it('a pod not yet scheduled: said only while no node of the group has the model', async () => {
    const waiting = await runPlaybook(
      localModelCache,
      [isvc(), cache({ 'gpu-node-1': 'NodeDownloading' }), pod('llama3-8b-predictor-c')],
      TARGET,
    );
    expect(codes(waiting.report)[0]!.title).toContain('waits unscheduled');
    const elsewhere = await runPlaybook(
      localModelCache,
      [isvc(), cache({ 'gpu-node-1': 'NodeDownloaded' }), pod('llama3-8b-predictor-c')],
      TARGET,
    );
    expect(codes(elsewhere.report)).toEqual([]);
  });

  it('leaves alone a pod on a node that has the model, and a service no cache serves', async () => {
    const objects = [cache({ 'gpu-node-1': 'NodeDownloaded' }), pod('llama3-8b-predictor-a', 'gpu-node-1')];
    expect(codes((await runPlaybook(localModelCache, [isvc(), ...objects], TARGET)).report)).toEqual([]);
    const plain = await runPlaybook(localModelCache, [isvc(false), ...objects], TARGET);
    expect(codes(plain.report)).toEqual([]);
    expect(plain.paths.filter((p) => p.includes('localmodel'))).toEqual([]);
  });
});
