/**
 * modelcar on an oci:// model: the failing modelcar container and its own words decide what the
 * image lacks (nothing under /models, said by modelcar-init's check; no shell for the sidecar's
 * `sh -c`); a pull failure of the same container is left to image-pull. An oci:// entry of
 * storageUris that no container of a KServe 0.16 pod runs is STORAGE_URI_UNSUPPORTED, naming the
 * entry; a running modelcar is left alone.
 */
import { describe, expect, it } from '@jest/globals';
import type { Report } from '../src/findings/types.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { modelcar } from './modelcar.js';

const NS = 'ml-raw';
const TARGET = { namespace: NS, name: 'xgboost-oci' };
const POD = 'xgboost-oci-predictor-5f8c9d6b7d-n2rxv';
const IMAGE = 'quay.io/acme-ml/xgboost-iris-modelcar:1.1';
const SERVER = 'kserve/xgbserver:v0.16.0';

function isvc(
  model: Record<string, unknown> = { storageUri: `oci://${IMAGE}` },
  predictor: Record<string, unknown> = {},
) {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: {
      name: 'xgboost-oci',
      namespace: NS,
      generation: 1,
      annotations: { 'serving.kserve.io/deploymentMode': 'Standard' },
    },
    spec: { predictor: { model: { modelFormat: { name: 'xgboost' }, ...model }, ...predictor } },
    status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'False' }] },
  };
}

type State = Record<string, unknown>;
const running: State = { running: { startedAt: '2026-09-01T10:00:00Z' } };

function pod(opts: { init?: State; sidecar?: State; modelcar?: boolean } = {}) {
  const withModelcar = opts.modelcar ?? true;
  const status = (name: string, image: string, state: State, restarts = 0, last?: State) => ({
    name,
    image,
    ready: 'running' in state,
    restartCount: restarts,
    state,
    ...(last ? { lastState: last } : {}),
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD,
      namespace: NS,
      labels: { 'serving.kserve.io/inferenceservice': 'xgboost-oci', component: 'predictor' },
    },
    spec: {
      initContainers: withModelcar ? [{ name: 'modelcar-init', image: IMAGE }] : [],
      containers: [
        { name: 'kserve-container', image: SERVER },
        ...(withModelcar
          ? [
              {
                name: 'modelcar',
                image: IMAGE,
                args: ['sh', '-c', 'ln -sf /proc/$$/root/models /mnt/models && sleep infinity'],
              },
            ]
          : []),
      ],
    },
    status: {
      phase: opts.init ? 'Pending' : 'Running',
      initContainerStatuses: withModelcar
        ? [
            opts.init
              ? status('modelcar-init', IMAGE, opts.init, 3, { terminated: { exitCode: 1, reason: 'Error' } })
              : status('modelcar-init', IMAGE, { terminated: { exitCode: 0, reason: 'Completed' } }),
          ]
        : [],
      containerStatuses: [
        status('kserve-container', SERVER, running),
        ...(withModelcar
          ? [
              opts.sidecar
                ? status('modelcar', IMAGE, opts.sidecar, 2, {
                    terminated: { exitCode: 127, reason: 'StartError', message: opts.sidecar.message ?? '' },
                  })
                : status('modelcar', IMAGE, running),
            ]
          : []),
      ],
    },
  };
}

const NOK = `Pre-fetching modelcar ${IMAGE}: \nNOK ... Prefetched but modelcar is invalid (/models does not exist or is empty)\n`;
const of = (r: Report, code: string) => r.findings.filter((f) => f.code === code);

describe('modelcar', () => {
  it("modelcar-init's check finds nothing under /models: the image and its own words, rebuild with the model there", async () => {
    const { report } = await runPlaybook(
      modelcar,
      [isvc(), pod({ init: { waiting: { reason: 'CrashLoopBackOff' } } })],
      TARGET,
      { logs: { [`${NS}/${POD}/modelcar-init#previous`]: NOK } },
    );
    const [f, ...rest] = of(report, 'MODELCAR_FAILED');
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'error', subject: `Pod ${NS}/${POD}`, component: 'predictor' });
    expect(f!.title).toContain(`${IMAGE} has nothing under /models`);
    expect(f!.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'log',
        container: 'modelcar-init',
        excerpt: expect.arrayContaining([expect.stringContaining('NOK ... Prefetched but modelcar is invalid')]),
      }),
    );
    expect(f!.next).toContain('/models');
    expect(f!.next).toContain('spec.predictor.model.storageUri');
  });

  it('the sidecar cannot run sh: the image has no shell', async () => {
    const message = 'failed to create containerd task: exec: "sh": executable file not found in $PATH: unknown';
    const { report } = await runPlaybook(
      modelcar,
      [isvc(), pod({ sidecar: { waiting: { reason: 'CrashLoopBackOff', message } } })],
      TARGET,
    );
    const [f] = of(report, 'MODELCAR_FAILED');
    expect(f!.title).toContain(`${IMAGE} has no shell`);
    expect(f!.next).toContain('FROM busybox');
  });

  it('leaves a pull failure of the modelcar to image-pull, and a running modelcar alone', async () => {
    const pull = await runPlaybook(
      modelcar,
      [
        isvc(),
        pod({ init: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${IMAGE}"` } } }),
      ],
      TARGET,
    );
    expect(of(pull.report, 'MODELCAR_FAILED')).toEqual([]);
    const healthy = await runPlaybook(modelcar, [isvc(), pod()], TARGET);
    expect(
      healthy.report.findings.filter((f) => f.code === 'MODELCAR_FAILED' || f.code === 'STORAGE_URI_UNSUPPORTED'),
    ).toEqual([]);
  });

  it('KServe 0.16 runs no modelcar for an oci:// entry of storageUris: the entry, what the pod runs, the release', async () => {
    const { report } = await runPlaybook(
      modelcar,
      [isvc({}, { storageUris: [{ uri: `oci://${IMAGE}`, mountPath: '/mnt/models' }] }), pod({ modelcar: false })],
      TARGET,
    );
    const [f] = of(report, 'STORAGE_URI_UNSUPPORTED');
    expect(f).toMatchObject({ severity: 'error', subject: `Pod ${NS}/${POD}` });
    expect(f!.title).toContain('spec.predictor.storageUris[0]');
    expect(f!.evidence.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`modelcar: none runs ${IMAGE}`),
        'KServe release (from the images): 0.16.0',
      ]),
    );
    expect(f!.next).toContain(`storageUri: oci://${IMAGE}`);
  });
});
