/**
 * The multinode-workers playbook when a worker runs another image than the head (variations of the
 * pending-worker scenario, the worker now scheduled and running): the next step edits the field that
 * sets the worker's image — the InferenceService's workerSpec container, the model's runtimeVersion
 * (which sets the head's tag only), or the runtime's spec.workerSpec.
 */
import { describe, expect, it } from '@jest/globals';
import { diagnose } from '../../../src/app/diagnoser.js';
import type { Finding } from '../../../src/findings/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import { startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

const DIR = 'test/scenarios/multinode-worker-pending-gpu-head-waits-kserve-0-19';
const TARGET = { namespace: 'llm', name: 'huggingface-llama3' };
const WORKER = 'huggingface-llama3-predictor-worker-6f9d8c7b54-zt5qw';
const HEAD_IMAGE = 'kserve/huggingfaceserver:v0.19.0-gpu';
const OLD_IMAGE = 'kserve/huggingfaceserver:v0.18.0-gpu';

interface Obj {
  kind?: string;
  metadata: { name?: string };
  spec: {
    containers: Array<{ image?: string }>;
    nodeName?: string;
    predictor: { model: { runtimeVersion?: string }; workerSpec: { containers?: unknown[] } };
  };
  status?: unknown;
}

async function workerFinding(change: (objects: Obj[]) => void): Promise<Finding> {
  const snapshot = await loadSnapshot(DIR);
  const objects = snapshot.objects as unknown as Obj[];
  const worker = objects.find((o) => o.kind === 'Pod' && o.metadata.name === WORKER)!;
  worker.spec.containers[0]!.image = OLD_IMAGE;
  worker.spec.nodeName = 'gpu-node-2';
  worker.status = {
    phase: 'Running',
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
    ],
    containerStatuses: [
      { name: 'worker-container', ready: false, restartCount: 0, image: OLD_IMAGE, state: { running: {} } },
    ],
  };
  change(objects);
  const simulator = await startSimulator({ snapshot, port: 0 });
  try {
    const report = await diagnose(kubeConfigForServer(simulator.url), TARGET);
    const found = report.findings.find((f) => f.code === 'LLM_WORKER_GROUP_SHORT');
    expect(found?.title).toContain(`runs image ${OLD_IMAGE}, the head ${HEAD_IMAGE}`);
    return found!;
  } finally {
    await simulator.close();
  }
}

const isvcOf = (objects: Obj[]) => objects.find((o) => o.kind === 'InferenceService')!;
const runtime = (workerImage: string) => ({
  apiVersion: 'serving.kserve.io/v1alpha1',
  kind: 'ClusterServingRuntime',
  metadata: { name: 'kserve-huggingfaceserver-multinode' },
  spec: {
    supportedModelFormats: [{ name: 'huggingface', version: '1' }],
    containers: [{ name: 'kserve-container', image: HEAD_IMAGE }],
    workerSpec: {
      pipelineParallelSize: 2,
      tensorParallelSize: 1,
      containers: [{ name: 'worker-container', image: workerImage }],
    },
  },
});

describe('multinode-workers: a worker on another image', () => {
  it("names the InferenceService's own workerSpec image when it sets one", async () => {
    const f = await workerFinding((objects) => {
      isvcOf(objects).spec.predictor.workerSpec.containers = [{ name: 'worker-container', image: OLD_IMAGE }];
    });
    expect(f.next).toBe(
      `kubectl edit inferenceservice huggingface-llama3 -n llm: spec.predictor.workerSpec.containers[worker-container].image is ${OLD_IMAGE}; set it to the head's ${HEAD_IMAGE} (or remove it so the runtime's worker image applies), so the Ray / vLLM versions of head and worker match; then kubectl delete pod ${WORKER} huggingface-llama3-predictor-2f2542cd8f-e94kd -n llm`,
    );
  });

  it('says runtimeVersion gives the head its tag, naming the runtime whose workerSpec keeps the old image', async () => {
    const f = await workerFinding((objects) => {
      isvcOf(objects).spec.predictor.model.runtimeVersion = 'v0.19.0-gpu';
      objects.push(runtime(OLD_IMAGE) as unknown as Obj);
    });
    expect(f.next).toContain(
      `spec.predictor.model.runtimeVersion v0.19.0-gpu gives the head ${HEAD_IMAGE} while the worker runs ${OLD_IMAGE} (ClusterServingRuntime kserve-huggingfaceserver-multinode's spec.workerSpec); remove runtimeVersion, or set spec.workerSpec's image to ${HEAD_IMAGE} there (kubectl edit clusterservingruntime kserve-huggingfaceserver-multinode)`,
    );
  });

  it("leaves a runtimeVersion that is not the head's tag out, and edits the runtime", async () => {
    const f = await workerFinding((objects) => {
      isvcOf(objects).spec.predictor.model.runtimeVersion = 'v0.17.0-gpu';
      objects.push(runtime(OLD_IMAGE) as unknown as Obj);
    });
    expect(f.next).toMatch(/^kubectl edit clusterservingruntime kserve-huggingfaceserver-multinode: /);
    expect(f.next).not.toContain('runtimeVersion');
  });

  it("edits the runtime's spec.workerSpec when the runtime gives the two containers different images", async () => {
    const f = await workerFinding((objects) => {
      objects.push(runtime(OLD_IMAGE) as unknown as Obj);
    });
    expect(f.next).toMatch(
      new RegExp(
        `^kubectl edit clusterservingruntime kserve-huggingfaceserver-multinode: spec.workerSpec's container image is ${OLD_IMAGE.replace(/[.]/g, '\\.')} while the head runs`,
      ),
    );
  });
});
