/**
 * pod-scheduling on a Pending pod and on a ReplicaSet refused by a quota: the PodScheduled condition
 * and the scheduler's FailedScheduling event decide that the pod cannot be placed, the taint it names
 * against the pod's tolerations decides what to change; a FailedCreate event with the quota's refusal
 * and the ResourceQuota's usage decide QUOTA_EXCEEDED.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { podScheduling } from './pod-scheduling.js';

const TARGET = { namespace: 'llm', name: 'chat' };
const POD = 'chat-predictor-7c9d8-x2x4p';

const isvc = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: {
    name: 'chat',
    namespace: 'llm',
    generation: 1,
    annotations: { 'serving.kserve.io/deploymentMode': 'RawDeployment' },
  },
  spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, storageUri: 'hf://org/model' } } },
  status: {
    observedGeneration: 1,
    conditions: [{ type: 'Ready', status: 'False', reason: 'MinimumReplicasUnavailable' }],
  },
};

function pendingPod(tolerations: Array<Record<string, string>>, scheduled: 'False' | 'True' = 'False') {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD,
      namespace: 'llm',
      labels: { 'serving.kserve.io/inferenceservice': 'chat', component: 'predictor' },
    },
    spec: {
      tolerations,
      containers: [
        {
          name: 'kserve-container',
          image: 'kserve/huggingfaceserver:v0.15.0',
          resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
        },
      ],
    },
    status: {
      phase: scheduled === 'False' ? 'Pending' : 'Running',
      conditions: [
        { type: 'PodScheduled', status: scheduled, ...(scheduled === 'False' ? { reason: 'Unschedulable' } : {}) },
      ],
    },
  };
}

function event(kind: string, name: string, reason: string, message: string, at: string) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${at.replace(/\D/g, '')}`, namespace: 'llm' },
    involvedObject: { kind, name, namespace: 'llm' },
    type: 'Warning',
    reason,
    message,
    lastTimestamp: at,
  };
}

const TAINTED =
  '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) had untolerated taint {nvidia.com/gpu: a100}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';

describe('pod-scheduling', () => {
  it('names the taint the toleration fails to match, with the tolerations the pod has', async () => {
    const { report } = await runPlaybook(
      podScheduling,
      [
        isvc,
        pendingPod([{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'present', effect: 'NoSchedule' }]),
        event('Pod', POD, 'FailedScheduling', TAINTED, '2026-11-02T09:01:00Z'),
      ],
      TARGET,
    );
    expect(report.rootCause).toBe('POD_UNSCHEDULABLE');
    const f = report.findings[0]!;
    expect(f).toMatchObject({ code: 'POD_UNSCHEDULABLE', subject: `Pod llm/${POD}`, component: 'predictor' });
    expect(f.evidence).toContainEqual(expect.objectContaining({ kind: 'event', text: `FailedScheduling: ${TAINTED}` }));
    // the control plane's taint is not one a model's pod should tolerate: only the GPU taint is advised on
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'field', text: 'tolerations: nvidia.com/gpu Equal present NoSchedule' }),
    );
    expect(f.next).toContain('nvidia.com/gpu');
    expect(f.next).toContain('operator: Exists');
    expect(f.next).not.toContain('control-plane');
  });

  it('adds a toleration when the pod has none for the taint', async () => {
    const { report } = await runPlaybook(
      podScheduling,
      [isvc, pendingPod([]), event('Pod', POD, 'FailedScheduling', TAINTED, '2026-11-02T09:01:00Z')],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'POD_UNSCHEDULABLE')!;
    expect(f.evidence).toContainEqual(expect.objectContaining({ kind: 'field', text: 'tolerations: none' }));
    expect(f.next).toMatch(/add a toleration \{key: nvidia\.com\/gpu, operator: Exists/);
  });

  it('reports a quota that refuses the pods on the object it refused, with the quota usage', async () => {
    const refused =
      'Error creating: pods "chat-predictor-7c9d8-abcde" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=4, limited: requests.nvidia.com/gpu=4';
    const { report } = await runPlaybook(
      podScheduling,
      [
        isvc,
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: 'gpu-quota', namespace: 'llm' },
          spec: { hard: { 'requests.nvidia.com/gpu': '4' } },
          status: { hard: { 'requests.nvidia.com/gpu': '4' }, used: { 'requests.nvidia.com/gpu': '4' } },
        },
        event('ReplicaSet', 'chat-predictor-7c9d8', 'FailedCreate', refused, '2026-11-02T09:01:00Z'),
        event('ReplicaSet', 'chat-predictor-7c9d8', 'FailedCreate', refused, '2026-11-02T09:05:00Z'),
      ],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'QUOTA_EXCEEDED')!;
    expect(f).toMatchObject({ subject: 'ReplicaSet llm/chat-predictor-7c9d8', component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'field',
        ref: 'ResourceQuota llm/gpu-quota',
        text: 'requests.nvidia.com/gpu: used 4 of 4',
      }),
    );
    expect(report.findings.map((x) => x.code)).not.toContain('POD_UNSCHEDULABLE');
  });

  it('finds nothing for a scheduled pod and no refusal', async () => {
    const { codes } = await runPlaybook(podScheduling, [isvc, pendingPod([], 'True')], TARGET);
    expect(codes.filter((c) => podScheduling.emits.includes(c as never))).toEqual([]);
  });
});
