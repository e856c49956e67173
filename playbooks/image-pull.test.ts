/**
 * image-pull on a pod the kubelet cannot pull for: the container's waiting reason decides that it is a
 * pull failure, the kubelet's event says why (here a registry refusing the node), and the pod's
 * service account and pull secrets are the evidence the next step is built from. One finding per image.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { imagePull } from './image-pull.js';

const TARGET = { namespace: 'fraud', name: 'scorer' };
const IMAGE = 'harbor.acme.internal/fraud/scorer:2.4.1';

const isvc = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'scorer', namespace: 'fraud', generation: 1 },
  spec: { predictor: { containers: [{ name: 'kserve-container', image: IMAGE }] } },
  status: {
    observedGeneration: 1,
    conditions: [{ type: 'Ready', status: 'Unknown', reason: 'RevisionMissing' }],
  },
};

type Waiting = { reason: string; message?: string } | null;

function pod(
  name: string,
  waiting: Waiting,
  where: 'containerStatuses' | 'initContainerStatuses' = 'containerStatuses',
) {
  const state = waiting ? { waiting } : { running: { startedAt: '2026-11-02T09:00:00Z' } };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'fraud',
      labels: { 'serving.kserve.io/inferenceservice': 'scorer', component: 'predictor' },
    },
    spec: { serviceAccountName: 'scorer-sa', containers: [{ name: 'kserve-container', image: IMAGE }] },
    status: {
      phase: waiting ? 'Pending' : 'Running',
      [where]: [{ name: 'kserve-container', image: IMAGE, imageID: '', ready: !waiting, restartCount: 0, state }],
    },
  };
}

function event(podName: string, reason: string, message: string, at: string) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${podName}.${at.replace(/\D/g, '')}`, namespace: 'fraud' },
    involvedObject: { kind: 'Pod', name: podName, namespace: 'fraud' },
    type: 'Warning',
    reason,
    message,
    lastTimestamp: at,
  };
}

const REFUSED = `Failed to pull image "${IMAGE}": rpc error: code = Unknown desc = failed to authorize: 401 Unauthorized`;

describe('image-pull', () => {
  it("reports the pod's pull failure with the kubelet's reason and points at the pod's service account", async () => {
    const { report } = await runPlaybook(
      imagePull,
      [
        isvc,
        pod('scorer-predictor-1', { reason: 'ImagePullBackOff', message: `Back-off pulling image "${IMAGE}"` }),
        event('scorer-predictor-1', 'Failed', REFUSED, '2026-11-02T09:01:00Z'),
        event('scorer-predictor-1', 'BackOff', `Back-off pulling image "${IMAGE}"`, '2026-11-02T09:02:00Z'),
      ],
      TARGET,
    );
    expect(report.rootCause).toBe('IMAGE_PULL_FAILED');
    const f = report.findings[0]!;
    expect(f).toMatchObject({
      code: 'IMAGE_PULL_FAILED',
      severity: 'error',
      subject: 'Pod fraud/scorer-predictor-1',
      component: 'predictor',
    });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'field',
        container: 'kserve-container',
        text: expect.stringContaining('ImagePullBackOff'),
      }),
    );
    // the kubelet's "Failed to pull image" says why; it comes before the back-off that only repeats it
    expect(f.evidence.filter((e) => e.kind === 'event').map((e) => e.text)).toEqual([
      `Failed: ${REFUSED}`,
      `BackOff: Back-off pulling image "${IMAGE}"`,
    ]);
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ text: 'serviceAccountName: scorer-sa; imagePullSecrets: none' }),
    );
    expect(f.next).toContain('serviceaccount scorer-sa');
    expect(f.next).toContain('harbor.acme.internal');
  });

  it('reports an image once however many pods cannot pull it, init containers included', async () => {
    const { report } = await runPlaybook(
      imagePull,
      [
        isvc,
        pod('scorer-predictor-1', { reason: 'ErrImagePull' }, 'initContainerStatuses'),
        pod('scorer-predictor-2', { reason: 'ImagePullBackOff' }),
      ],
      TARGET,
    );
    expect(report.findings.filter((f) => f.code === 'IMAGE_PULL_FAILED').map((f) => f.subject)).toEqual([
      'Pod fraud/scorer-predictor-1',
    ]);
  });

  it('finds nothing when the containers wait for another reason or run', async () => {
    const { codes } = await runPlaybook(
      imagePull,
      [isvc, pod('scorer-predictor-1', { reason: 'CrashLoopBackOff' }), pod('scorer-predictor-2', null)],
      TARGET,
    );
    expect(codes).not.toContain('IMAGE_PULL_FAILED');
  });
});
