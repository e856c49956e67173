/**
 * The modelcar playbook on the image-without-/models scenario and its variations: the modelcar
 * container's own words decide what the image lacks (/models, a shell), and a pull failure of the
 * same container is left to image-pull.
 */
import { describe, expect, it } from '@jest/globals';
import type { V1ContainerStatus } from '@kubernetes/client-node';
import { diagnose } from '../../../src/app/diagnoser.js';
import type { Report } from '../../../src/findings/types.js';
import { kubeConfigForServer } from '../../../src/kube/client.js';
import { startSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

const DIR = 'test/scenarios/storage-modelcar-image-without-models-dir';
const POD = 'xgboost-oci-predictor-5f8c9d6b7d-n2rxv';
const IMAGE = 'quay.io/acme-ml/xgboost-iris-modelcar:1.1';

type PodObj = {
  kind: string;
  status: { initContainerStatuses: V1ContainerStatus[]; containerStatuses: V1ContainerStatus[] };
};

async function diagnoseVariant(change: (pod: PodObj, logs: Map<string, string>) => void): Promise<Report> {
  const snapshot = await loadSnapshot(DIR);
  const pod = (snapshot.objects as unknown as PodObj[]).find((o) => o.kind === 'Pod')!;
  change(pod, snapshot.logs);
  const simulator = await startSimulator({ snapshot, port: 0 });
  try {
    return await diagnose(kubeConfigForServer(simulator.url), { namespace: 'ml-raw', name: 'xgboost-oci' }, {});
  } finally {
    await simulator.close();
  }
}

/** modelcar-init passed; the modelcar sidecar cannot start. */
function sidecarFails(pod: PodObj, logs: Map<string, string>, waiting: { reason: string; message: string }) {
  for (const key of [...logs.keys()]) if (key.includes('/modelcar-init')) logs.delete(key);
  pod.status.initContainerStatuses = [
    {
      name: 'modelcar-init',
      image: IMAGE,
      imageID: '',
      ready: true,
      restartCount: 0,
      state: { terminated: { exitCode: 0, reason: 'Completed' } },
    },
  ];
  const modelcar = pod.status.containerStatuses.find((s) => s.name === 'modelcar')!;
  modelcar.state = { waiting };
  modelcar.restartCount = 4;
}

describe('modelcar playbook', () => {
  it("says the image has no /models from modelcar-init's check", async () => {
    const report = await diagnoseVariant(() => {});
    expect(report.findings[0]!.code).toBe('MODELCAR_FAILED');
    expect(report.findings[0]!.next).toMatch(
      /^Rebuild quay\.io\/acme-ml\/xgboost-iris-modelcar:1\.1 with the model files under \/models/,
    );
  });

  it('says the image has no shell when the sidecar cannot exec sh', async () => {
    const report = await diagnoseVariant((pod, logs) =>
      sidecarFails(pod, logs, {
        reason: 'RunContainerError',
        message:
          'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "sh": executable file not found in $PATH: unknown',
      }),
    );
    const root = report.findings[0]!;
    expect(root.code).toBe('MODELCAR_FAILED');
    expect(root.title).toBe(
      `The model image ${IMAGE} has no shell: the modelcar container of oci://${IMAGE} cannot run sh`,
    );
    expect(root.next).toMatch(/on a base that has sh \(FROM busybox/);
  });

  it('names the container and its logs when its words say nothing known', async () => {
    const report = await diagnoseVariant((pod, logs) =>
      sidecarFails(pod, logs, {
        reason: 'CrashLoopBackOff',
        message: 'back-off 40s restarting failed container=modelcar',
      }),
    );
    expect(report.findings[0]!.code).toBe('MODELCAR_FAILED');
    expect(report.findings[0]!.next).toContain(`kubectl logs ${POD} -n ml-raw -c modelcar --previous`);
  });

  it('leaves a pull failure of the modelcar to image-pull', async () => {
    const report = await diagnoseVariant((pod) => {
      pod.status.initContainerStatuses[0]!.state = {
        waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${IMAGE}"` },
      };
      pod.status.initContainerStatuses[0]!.lastState = {};
    });
    const codes = report.findings.map((f) => f.code);
    expect(codes).toContain('IMAGE_PULL_FAILED');
    expect(codes).not.toContain('MODELCAR_FAILED');
  });
});
