/**
 * model-server-log on a Ready InferenceService whose model server runs without its model: the start
 * of the newest running server's log is matched against the `model-log` signatures (the release
 * read from the pods' images decides which entries apply), and a missing model file is said with
 * what the storage-initializer's own lines put in /mnt/models. An older pod's log and a crashing
 * server (model-container's) are left alone.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { modelServerLog } from './model-server-log.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const POD = 'iris-predictor-7d9c8b6f5-x2k4p';
const SKLEARN = 'kserve/sklearnserver:v0.14.1';
const STORAGE_URI = 'gs://acme-models/sklearn/iris';

const isvc = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: {
    name: 'iris',
    namespace: 'ml',
    generation: 1,
    annotations: { 'serving.kserve.io/deploymentMode': 'RawDeployment' },
  },
  spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: STORAGE_URI } } },
  status: {
    observedGeneration: 1,
    url: 'http://iris-ml.example.com',
    conditions: [
      { type: 'PredictorReady', status: 'True' },
      { type: 'Ready', status: 'True' },
    ],
  },
};

function pod(
  name: string,
  opts: { image?: string; created?: string; crashing?: boolean; initializer?: boolean } = {},
): Record<string, unknown> {
  const image = opts.image ?? SKLEARN;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ml',
      creationTimestamp: opts.created ?? '2026-11-02T09:00:00Z',
      labels: { 'serving.kserve.io/inferenceservice': 'iris', component: 'predictor' },
    },
    spec: {
      ...(opts.initializer
        ? { initContainers: [{ name: 'storage-initializer', image: 'kserve/storage-initializer:v0.14.1' }] }
        : {}),
      containers: [
        {
          name: 'kserve-container',
          image,
          args: ['--model_name=iris', '--model_dir=/mnt/models', '--http_port=8080'],
        },
      ],
    },
    status: {
      phase: 'Running',
      ...(opts.initializer
        ? {
            initContainerStatuses: [
              {
                name: 'storage-initializer',
                image: 'kserve/storage-initializer:v0.14.1',
                ready: true,
                restartCount: 0,
                state: { terminated: { reason: 'Completed', exitCode: 0 } },
              },
            ],
          }
        : {}),
      containerStatuses: [
        opts.crashing
          ? {
              // up again after exiting with an error: the crash is model-container's
              name: 'kserve-container',
              image,
              ready: false,
              restartCount: 3,
              state: { running: { startedAt: '2026-11-02T09:03:10Z' } },
              lastState: { terminated: { reason: 'Error', exitCode: 1 } },
            }
          : {
              name: 'kserve-container',
              image,
              ready: true,
              restartCount: 0,
              state: { running: { startedAt: '2026-11-02T09:00:10Z' } },
            },
      ],
    },
  };
}

const serverLog = (...lines: string[]) =>
  [
    'INFO:kserve:Loading model iris',
    ...lines,
    'INFO:kserve:Starting uvicorn with 1 workers',
    'INFO:     Uvicorn running on http://0.0.0.0:8080 (Press CTRL+C to quit)',
    '',
  ].join('\n');

const MISSING =
  '[E 241102 09:00:12 __main__:42] fail to load model iris from dir /mnt/models,trying to load from model repository.';

describe('model-server-log', () => {
  it("reports a missing model file on the running server's pod, with what the storage-initializer put in /mnt/models", async () => {
    const { report } = await runPlaybook(modelServerLog, [isvc, pod(POD, { initializer: true })], TARGET, {
      logs: {
        [`ml/${POD}/kserve-container`]: serverLog(MISSING),
        [`ml/${POD}/storage-initializer`]: [
          `INFO:root:Copying contents of ${STORAGE_URI} to local`,
          'INFO:root:Downloading: /mnt/models/v2/model.joblib',
          `INFO:root:Successfully copied ${STORAGE_URI} to /mnt/models`,
          '',
        ].join('\n'),
      },
    });
    const f = report.findings.find((x) => x.code === 'MODEL_FILE_MISSING')!;
    expect(f).toMatchObject({ severity: 'error', subject: `Pod ml/${POD}`, component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'log',
        ref: `Pod ml/${POD}`,
        container: 'kserve-container',
        excerpt: expect.arrayContaining([MISSING]),
      }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'log',
        container: 'storage-initializer',
        text: 'what the storage-initializer put in /mnt/models',
        excerpt: expect.arrayContaining(['INFO:root:Downloading: /mnt/models/v2/model.joblib']),
      }),
    );
    // the model file one folder down: the next step points the storageUri at that folder
    expect(f.next).toContain(`${STORAGE_URI}/v2`);
  });

  it("reports a load failure that the server logs and keeps serving through (TorchServe's wrapper)", async () => {
    const image = 'pytorch/torchserve-kfs:0.9.0';
    const { report } = await runPlaybook(modelServerLog, [isvc, pod(POD, { image })], TARGET, {
      logs: { [`ml/${POD}/kserve-container`]: serverLog('INFO:root:Failed loading model mnist') },
    });
    expect(report.findings.filter((x) => modelServerLog.emits.includes(x.code as never)).map((x) => x.code)).toEqual([
      'MODEL_LOAD_FAILED',
    ]);
    const f = report.findings.find((x) => x.code === 'MODEL_LOAD_FAILED')!;
    expect(f).toMatchObject({ subject: `Pod ml/${POD}`, component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'log',
        excerpt: expect.arrayContaining(['INFO:root:Failed loading model mnist']),
      }),
    );
  });

  it("reports a model saved by a newer library, by the entry for the release the pod's image names", async () => {
    const line =
      "[E 220629 13:33:21 __main__:37] fail to load model iris from dir /mnt/models. exception type <class 'ModuleNotFoundError'>, exception msg: No module named 'sklearn.svm._classes'";
    const logs = { [`ml/${POD}/kserve-container`]: serverLog(line) };
    const old = await runPlaybook(
      modelServerLog,
      [isvc, pod(POD, { image: 'kfserving/sklearnserver:v0.6.1' })],
      TARGET,
      {
        logs,
      },
    );
    const f = old.report.findings.find((x) => x.code === 'RUNTIME_UNSUPPORTED_MODEL')!;
    expect(f).toMatchObject({ subject: `Pod ml/${POD}`, component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'log', excerpt: expect.arrayContaining([line]) }),
    );
    // KServe 0.8 and later crash on such an error instead: the KFServing entries do not apply to its log
    const current = await runPlaybook(modelServerLog, [isvc, pod(POD)], TARGET, { logs });
    expect(current.codes.filter((c) => modelServerLog.emits.includes(c as never))).toEqual([]);
  });

  it("leaves alone a server that loaded its model, an older pod's log, and a crashing server", async () => {
    const older = 'iris-predictor-5b7f6c4d9-q8w2e';
    const crashing = 'iris-transformer-6c8d7f5b4-m3n9r';
    const { codes } = await runPlaybook(
      modelServerLog,
      [
        isvc,
        pod(POD, { created: '2026-11-02T09:00:00Z' }),
        pod(older, { created: '2026-11-01T09:00:00Z' }),
        {
          ...pod(crashing, { crashing: true }),
          metadata: {
            name: crashing,
            namespace: 'ml',
            labels: { 'serving.kserve.io/inferenceservice': 'iris', component: 'transformer' },
          },
        },
      ],
      TARGET,
      {
        logs: {
          [`ml/${POD}/kserve-container`]: serverLog(),
          [`ml/${older}/kserve-container`]: serverLog(MISSING),
          [`ml/${crashing}/kserve-container`]: serverLog(MISSING),
        },
      },
    );
    expect(codes).toEqual(['ISVC_READY']);
  });
});
