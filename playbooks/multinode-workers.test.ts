/**
 * multinode-workers on a multi-node InferenceService (spec.predictor.workerSpec) whose head runs and
 * waits: the worker pod's own state decides what is said on it (not scheduled, with the scheduler's
 * words and the GPUs it asks; crashing; on another image than the head), and the head's Ray waiting
 * line is the evidence that it waits for them; with no worker pod at all, the worker Deployment's events say the
 * controller keeps recreating it. A head and workers that are ready, or a service without
 * workerSpec, get nothing.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { multinodeWorkers } from './multinode-workers.js';

const TARGET = { namespace: 'llm', name: 'llama3' };
const HEAD = 'llama3-predictor-2f2542cd8f-e94kd';
const WORKER = 'llama3-predictor-worker-6f9d8c7b54-zt5qw';
const IMAGE = 'kserve/huggingfaceserver:v0.19.0-gpu';

function isvc(workerSpec: Record<string, unknown> | null = { pipelineParallelSize: 2, tensorParallelSize: 1 }) {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: {
      name: 'llama3',
      namespace: 'llm',
      generation: 1,
      annotations: { 'serving.kserve.io/deploymentMode': 'Standard' },
    },
    spec: {
      predictor: {
        model: { modelFormat: { name: 'huggingface' }, storageUri: 'pvc://llama-3-8b-pvc/hf/8b_instruction_tuned' },
        ...(workerSpec ? { workerSpec } : {}),
      },
    },
    status: {
      observedGeneration: 1,
      conditions: [{ type: 'Ready', status: 'False', reason: 'MinimumReplicasUnavailable' }],
    },
  };
}

type Status = Record<string, unknown>;

function pod(name: string, role: 'head' | 'worker', status: Status, image = IMAGE) {
  const app = role === 'head' ? 'isvc.llama3-predictor' : 'isvc.llama3-predictor-worker';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'llm',
      creationTimestamp: '2026-09-01T10:10:20Z',
      labels: { app, component: 'predictor', 'serving.kserve.io/inferenceservice': 'llama3' },
    },
    spec: {
      containers: [
        {
          name: role === 'head' ? 'kserve-container' : 'worker-container',
          image,
          resources: { limits: { 'nvidia.com/gpu': '1' }, requests: { 'nvidia.com/gpu': '1' } },
        },
      ],
    },
    status,
  };
}

const running = (container: string, ready: boolean, image = IMAGE): Status => ({
  phase: 'Running',
  conditions: [
    { type: 'PodScheduled', status: 'True' },
    { type: 'Ready', status: ready ? 'True' : 'False', ...(ready ? {} : { reason: 'ContainersNotReady' }) },
  ],
  containerStatuses: [
    { name: container, image, ready, restartCount: 0, state: { running: { startedAt: '2026-09-01T10:10:40Z' } } },
  ],
});

const UNSCHEDULABLE =
  '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.';

const pending: Status = {
  phase: 'Pending',
  conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: UNSCHEDULABLE }],
};

const RAY_WAITING =
  'kserve ERROR [health_check.py:check_registered_nodes():135] Waiting - Registered nodes count (1) does not match RAY_NODE_COUNT (2).';
const HEAD_LOG = {
  [`llm/${HEAD}/kserve-container`]: [
    '2026-09-01 10:10:43,905\tSUCC scripts.py:1063 -- Ray runtime started.',
    `2026-09-01 10:10:45.000 41 ${RAY_WAITING}`,
    `2026-09-01 10:10:47.037 41 ${RAY_WAITING}`,
    '',
  ].join('\n'),
};

function event(kind: string, name: string, reason: string, message: string, count: number) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${reason.toLowerCase()}`, namespace: 'llm' },
    involvedObject: { kind, name, namespace: 'llm' },
    type: 'Normal',
    reason,
    message,
    count,
    firstTimestamp: '2026-09-01T10:10:20Z',
    lastTimestamp: '2026-09-01T10:41:57Z',
  };
}

describe('multinode-workers', () => {
  it('without Ray (the mp executor): a head that exits when its torch.distributed store times out is waiting, not crashing on its own', async () => {
    const crashing: Status = {
      phase: 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
      ],
      containerStatuses: [
        {
          name: 'kserve-container',
          image: IMAGE,
          ready: false,
          restartCount: 2,
          lastState: { terminated: { exitCode: 1, reason: 'Error' } },
          state: { waiting: { reason: 'CrashLoopBackOff' } },
        },
      ],
    };
    const { report } = await runPlaybook(
      multinodeWorkers,
      [isvc(), pod(HEAD, 'head', crashing), pod(WORKER, 'worker', pending)],
      TARGET,
      {
        logs: {
          // the instance that gave up (torch.distributed's store timeout); the current one has just started
          [`llm/${HEAD}/kserve-container#previous`]:
            'torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/2 clients joined.\n',
          [`llm/${HEAD}/kserve-container`]: 'INFO 09-01 10:21:41 [api_server.py:1839] vLLM API server version 0.11.0\n',
        },
      },
    );
    const f = report.findings.find((x) => x.code === 'LLM_WORKER_GROUP_SHORT')!;
    expect(f.subject).toBe(`Pod llm/${WORKER}`);
    expect(f.explains).toEqual(expect.arrayContaining(['POD_UNSCHEDULABLE', 'CRASH_LOOP']));
    expect(f.evidence).toContainEqual(expect.objectContaining({ kind: 'log', ref: `Pod llm/${HEAD}`, previous: true }));
  });

  it("names the worker pod the scheduler cannot place, with its words, the GPUs it asks and the head's waiting line", async () => {
    const { report } = await runPlaybook(
      multinodeWorkers,
      [isvc(), pod(HEAD, 'head', running('kserve-container', false)), pod(WORKER, 'worker', pending)],
      TARGET,
      { logs: HEAD_LOG },
    );
    expect(report.rootCause).toBe('LLM_WORKER_GROUP_SHORT');
    const found = report.findings.filter((f) => f.code === 'LLM_WORKER_GROUP_SHORT');
    expect(found).toHaveLength(1);
    const f = found[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: `Pod llm/${WORKER}`, component: 'predictor' });
    expect(f.explains).toContain('POD_UNSCHEDULABLE');
    expect(f.evidence[0]).toMatchObject({
      kind: 'field',
      ref: `Pod llm/${WORKER}`,
      text: `PodScheduled=False (Unschedulable): ${UNSCHEDULABLE}; asks nvidia.com/gpu 1`,
    });
    // the head's own waiting line: it waits for the worker, not for its model
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'log',
        ref: `Pod llm/${HEAD}`,
        container: 'kserve-container',
        excerpt: expect.arrayContaining([expect.stringContaining('Registered nodes count (1)')]),
      }),
    );
    // the scheduler's words without its preemption postscript
    expect(f.title).toContain('3 Insufficient nvidia.com/gpu.)');
    expect(f.title).not.toContain('preemption');
    expect(f.next).toContain('nvidia.com/gpu 1');
  });

  it('names a worker that crashes, with its container state', async () => {
    const crashing: Status = {
      phase: 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'False' },
      ],
      containerStatuses: [
        {
          name: 'worker-container',
          image: IMAGE,
          ready: false,
          restartCount: 4,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { reason: 'Error', exitCode: 1 } },
        },
      ],
    };
    const { report } = await runPlaybook(
      multinodeWorkers,
      [isvc(), pod(HEAD, 'head', running('kserve-container', false)), pod(WORKER, 'worker', crashing)],
      TARGET,
      { logs: HEAD_LOG },
    );
    const f = report.findings.find((x) => x.code === 'LLM_WORKER_GROUP_SHORT')!;
    expect(f.subject).toBe(`Pod llm/${WORKER}`);
    expect(f.evidence[0]).toMatchObject({ text: 'worker-container: CrashLoopBackOff, 4 restart(s)' });
    expect(f.explains).not.toContain('POD_UNSCHEDULABLE');
  });

  it('names a worker that runs another image than the head', async () => {
    const old = 'kserve/huggingfaceserver:v0.18.0-gpu';
    const { report } = await runPlaybook(
      multinodeWorkers,
      [
        isvc(),
        pod(HEAD, 'head', running('kserve-container', false)),
        pod(WORKER, 'worker', running('worker-container', true, old), old),
      ],
      TARGET,
      { logs: HEAD_LOG },
    );
    const f = report.findings.find((x) => x.code === 'LLM_WORKER_GROUP_SHORT')!;
    expect(f.subject).toBe(`Pod llm/${WORKER}`);
    expect(f.evidence[0]).toMatchObject({
      text: `worker-container image ${old}; head kserve-container image ${IMAGE}`,
    });
  });

  it("with no worker pod, reports on the head with the worker Deployment's churn and the KServe release", async () => {
    const image = 'kserve/huggingfaceserver:v0.20.0-gpu';
    const { report } = await runPlaybook(
      multinodeWorkers,
      [
        isvc(),
        pod(HEAD, 'head', running('kserve-container', false, image), image),
        event(
          'Deployment',
          'llama3-predictor-worker',
          'ScalingReplicaSet',
          'Scaled up replica set llama3-predictor-worker-7b9c6d5f48 from 0 to 1',
          187,
        ),
        event('Pod', 'llama3-predictor-worker-7b9c6d5f48-q4m8z', 'Killing', 'Stopping container worker-container', 12),
      ],
      TARGET,
      { logs: HEAD_LOG },
    );
    const f = report.findings.find((x) => x.code === 'LLM_WORKER_GROUP_SHORT')!;
    expect(f).toMatchObject({ severity: 'error', subject: `Pod llm/${HEAD}` });
    expect(f.evidence.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        `pods of llama3: ${HEAD}; none of Deployment llama3-predictor-worker (app=isvc.llama3-predictor-worker)`,
        'ScalingReplicaSet: Scaled up replica set llama3-predictor-worker-7b9c6d5f48 from 0 to 1 (x187)',
        'Killing: Stopping container worker-container (x12)',
        'KServe release (from the images): 0.20.0',
      ]),
    );
    expect(f.title).toContain('created 187 times');
    expect(f.next).toContain('kserve/kserve#6113');
  });

  it('finds nothing when the head and its worker are ready, or the service has no workerSpec', async () => {
    const ready = await runPlaybook(
      multinodeWorkers,
      [
        isvc(),
        pod(HEAD, 'head', running('kserve-container', true)),
        pod(WORKER, 'worker', running('worker-container', true)),
      ],
      TARGET,
    );
    expect(ready.codes).not.toContain('LLM_WORKER_GROUP_SHORT');
    const single = await runPlaybook(
      multinodeWorkers,
      [isvc(null), pod(HEAD, 'head', running('kserve-container', false))],
      TARGET,
      { logs: HEAD_LOG },
    );
    expect(single.codes).not.toContain('LLM_WORKER_GROUP_SHORT');
  });
});
