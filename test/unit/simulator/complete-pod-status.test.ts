/** Pods from a snapshot get what the kubelet always writes, derived from what the snapshot says. */
import { completePodStatus } from '../../../src/simulator/complete-pod-status.js';
import type { KubeObject } from '../../../src/simulator/kube-object.js';

const pod = (status: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', creationTimestamp: '2024-01-01T00:00:00Z' },
  spec: {
    containers: [
      { name: 'kserve-container', image: 'sklearnserver:0.11' },
      { name: 'queue-proxy', image: 'queue:1.10' },
    ],
    ...spec,
  },
  status,
});
const running = { running: { startedAt: '2024-01-01T00:00:05Z' } };
const types = (o: KubeObject) =>
  ((o.status as { conditions: { type: string; status: string; reason?: string }[] }).conditions ?? []).map((c) => [
    c.type,
    c.status,
    c.reason,
  ]);

describe('completePodStatus', () => {
  it('a running pod without conditions reads as Ready (never 0/2 because the list is absent)', () => {
    const done = completePodStatus(
      pod({
        containerStatuses: [
          { name: 'kserve-container', state: running },
          { name: 'queue-proxy', state: running, ready: true },
        ],
      }),
    );
    expect(types(done)).toEqual([
      ['Initialized', 'True', undefined],
      ['Ready', 'True', undefined],
      ['ContainersReady', 'True', undefined],
      ['PodScheduled', 'True', undefined],
    ]);
    expect(done.status).toMatchObject({
      phase: 'Running',
      containerStatuses: [
        { ready: true, started: true, restartCount: 0, image: 'sklearnserver:0.11' },
        { ready: true },
      ],
    });
  });

  it('names unready containers and failed init containers as the kubelet does, and keeps given conditions', () => {
    const done = completePodStatus(
      pod(
        {
          conditions: [{ type: 'PodScheduled', status: 'True', reason: 'given' }],
          initContainerStatuses: [
            { name: 'storage-initializer', state: { terminated: { exitCode: 1, reason: 'Error' } }, restartCount: 3 },
          ],
          containerStatuses: [{ name: 'kserve-container', state: { waiting: { reason: 'PodInitializing' } } }],
        },
        { initContainers: [{ name: 'storage-initializer', image: 'storage-initializer:0.11' }] },
      ),
    );
    expect(types(done)).toEqual([
      ['PodScheduled', 'True', 'given'],
      ['Initialized', 'False', 'ContainersNotInitialized'],
      ['Ready', 'False', 'ContainersNotReady'],
      ['ContainersReady', 'False', 'ContainersNotReady'],
    ]);
    const conditions = (done.status as { conditions: { type: string; message?: string }[] }).conditions;
    expect(conditions.find((c) => c.type === 'Initialized')?.message).toBe(
      'containers with incomplete status: [storage-initializer]',
    );
    expect(conditions.find((c) => c.type === 'Ready')?.message).toBe(
      'containers with unready status: [kserve-container queue-proxy]',
    );
    expect(done.status).toMatchObject({ phase: 'Pending' });
  });

  it('a crash-looping container keeps the pod Running; a pod without container statuses is left alone', () => {
    const crashing = completePodStatus(
      pod({
        containerStatuses: [
          {
            name: 'kserve-container',
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1 } },
          },
        ],
      }),
    );
    expect(crashing.status).toMatchObject({ phase: 'Running', containerStatuses: [{ ready: false, started: false }] });
    const pending = pod({ phase: 'Pending' });
    expect(completePodStatus(pending)).toBe(pending);
  });
});
