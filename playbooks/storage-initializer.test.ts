/**
 * storage-initializer on a pod whose storage-initializer init container fails: its own log (the
 * exception that ended it, read by the `storage-initializer` signatures) says why, on the failing
 * pod, next to the init container's failure: a path that does not exist, credentials that may not
 * read it, a gated Hugging Face repository, a scheme this release does not know (and the same words
 * that, before KServe 0.8, mean a missing pvc:// path). With the pods gone, what KServe copied into
 * modelStatus or the events decide. A pod whose storage-initializer completed, and a pod that was
 * never created, are left alone.
 */
import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../src/findings/types.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { storageInitializer } from './storage-initializer.js';

const NS = 'default';
const TARGET = { namespace: NS, name: 'sklearn-iris' };
const POD = 'sklearn-iris-predictor-00001-deployment-xws5bzv8g6-w7sld';
const SUBJECT = `Pod ${NS}/${POD}`;
const GS_URI = 'gs://kfserving-examples/models/sklearn/1.0/modell';

function isvc(storageUri: string, status: Record<string, unknown> = {}) {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'sklearn-iris', namespace: NS, generation: 1 },
    spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri } } },
    status: {
      observedGeneration: 1,
      conditions: [
        {
          type: 'PredictorReady',
          status: 'Unknown',
          reason: 'RevisionMissing',
          message: 'Configuration "sklearn-iris-predictor" is waiting for a Revision to become ready.',
        },
        { type: 'Ready', status: 'Unknown', reason: 'RevisionMissing' },
      ],
      ...status,
    },
  };
}

function pod(
  storageUri: string,
  opts: {
    failed?: boolean;
    release?: string;
    serviceAccountName?: string;
    env?: { name: string; value: string }[];
  } = {},
) {
  const image = `kserve/storage-initializer:${opts.release ?? 'v0.11.1'}`;
  const failed = opts.failed ?? true;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD,
      namespace: NS,
      labels: {
        app: 'sklearn-iris-predictor-00001',
        component: 'predictor',
        'serving.knative.dev/revision': 'sklearn-iris-predictor-00001',
        'serving.kserve.io/inferenceservice': 'sklearn-iris',
      },
    },
    spec: {
      serviceAccountName: opts.serviceAccountName ?? 'default',
      initContainers: [
        {
          name: 'storage-initializer',
          image,
          args: [storageUri, '/mnt/models'],
          ...(opts.env ? { env: opts.env } : {}),
          terminationMessagePolicy: 'FallbackToLogsOnError',
        },
      ],
      containers: [
        {
          name: 'kserve-container',
          image: 'kserve/sklearnserver:v0.11.1',
          args: ['--model_name=sklearn-iris', '--model_dir=/mnt/models', '--http_port=8080'],
        },
      ],
    },
    status: {
      phase: failed ? 'Pending' : 'Running',
      ...(failed
        ? {
            conditions: [
              {
                type: 'Initialized',
                status: 'False',
                reason: 'ContainersNotInitialized',
                message: 'containers with incomplete status: [storage-initializer]',
              },
            ],
          }
        : {}),
      initContainerStatuses: [
        failed
          ? {
              name: 'storage-initializer',
              image,
              ready: false,
              restartCount: 3,
              state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' } },
              lastState: { terminated: { reason: 'Error', exitCode: 1 } },
            }
          : {
              name: 'storage-initializer',
              image,
              ready: true,
              restartCount: 0,
              state: { terminated: { reason: 'Completed', exitCode: 0 } },
            },
      ],
      containerStatuses: [
        failed
          ? {
              name: 'kserve-container',
              image: 'kserve/sklearnserver:v0.11.1',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'PodInitializing' } },
            }
          : {
              name: 'kserve-container',
              image: 'kserve/sklearnserver:v0.11.1',
              ready: true,
              restartCount: 0,
              state: { running: { startedAt: '2023-10-02T13:41:40Z' } },
            },
      ],
    },
  };
}

const initializerLog = (uri: string, ...lines: string[]) =>
  [
    `2023-10-02 13:41:33.518 1 kserve INFO [initializer-entrypoint:<module>():16] Initializing, args: src_uri [${uri}] dest_path[ [/mnt/models]`,
    `2023-10-02 13:41:33.518 1 kserve INFO [storage.py:download():66] Copying contents of ${uri} to local`,
    'Traceback (most recent call last):',
    '  File "/storage-initializer/scripts/initializer-entrypoint", line 17, in <module>',
    '    Storage.download(src_uri, dest_path)',
    ...lines,
    '',
  ].join('\n');

const NOT_FOUND = `RuntimeError: Failed to fetch model. No model found in ${GS_URI}.`;
const ACCESS_DENIED =
  'botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the ListObjects operation: Access Denied';

const ours = (findings: Finding[]) =>
  findings.filter((f) => storageInitializer.emits.includes(f.code as never)).map((f) => f.code);

const logLine = (line: string) =>
  expect.objectContaining({ kind: 'log', container: 'storage-initializer', excerpt: expect.arrayContaining([line]) });

describe('storage-initializer', () => {
  it("reports a path that does not exist on the failing pod, with the initializer's failure and its own words", async () => {
    const { report } = await runPlaybook(storageInitializer, [isvc(GS_URI), pod(GS_URI)], TARGET, {
      logs: {
        [`${NS}/${POD}/storage-initializer`]: initializerLog(
          GS_URI,
          '  File "/kserve/kserve/storage/storage.py", line 273, in _download_gcs',
          '    raise RuntimeError("Failed to fetch model. No model found in %s." % uri)',
          NOT_FOUND,
        ),
      },
    });
    expect(ours(report.findings).sort()).toEqual(['STORAGE_INIT_FAILED', 'STORAGE_URI_NOT_FOUND']);
    const cause = report.findings.find((f) => f.code === 'STORAGE_URI_NOT_FOUND')!;
    expect(cause).toMatchObject({ severity: 'error', subject: SUBJECT, component: 'predictor' });
    expect(cause.evidence).toContainEqual(
      expect.objectContaining({ kind: 'field', text: expect.stringContaining(`storageUri: ${GS_URI}`) }),
    );
    expect(cause.evidence).toContainEqual(logLine(NOT_FOUND));
    const failed = report.findings.find((f) => f.code === 'STORAGE_INIT_FAILED')!;
    expect(failed).toMatchObject({ subject: SUBJECT, component: 'predictor' });
    expect(failed.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'field',
        container: 'storage-initializer',
        text: 'storage-initializer: CrashLoopBackOff, exit code 1, 3 restart(s)',
      }),
    );
  });

  it('reports credentials that may not read the bucket, with the service account the pod runs as', async () => {
    const uri = 's3://acme-risk-models/credit/xgb/v3';
    const env = [
      { name: 'AWS_ACCESS_KEY_ID', value: 'AKIAIOSFODNN7EXAMPLE' },
      { name: 'S3_ENDPOINT', value: 's3.amazonaws.com' },
    ];
    const { report } = await runPlaybook(
      storageInitializer,
      [isvc(uri), pod(uri, { serviceAccountName: 's3-reader', env })],
      TARGET,
      {
        logs: {
          [`${NS}/${POD}/storage-initializer`]: initializerLog(
            uri,
            '  File "/kserve/kserve/storage/storage.py", line 187, in _download_s3',
            '    for obj in objects:',
            ACCESS_DENIED,
          ),
        },
      },
    );
    expect(ours(report.findings).sort()).toEqual(['STORAGE_ACCESS_DENIED', 'STORAGE_INIT_FAILED']);
    const f = report.findings.find((x) => x.code === 'STORAGE_ACCESS_DENIED')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'field', ref: SUBJECT, text: 'serviceAccountName: s3-reader' }),
    );
    expect(f.evidence).toContainEqual(logLine(ACCESS_DENIED));
  });

  it('reports an s3:// download that got no credentials injected at all, with the env the initializer had', async () => {
    const uri = 's3://acme-risk-models/credit/xgb/v3';
    const { report } = await runPlaybook(storageInitializer, [isvc(uri), pod(uri)], TARGET, {
      logs: {
        [`${NS}/${POD}/storage-initializer`]: initializerLog(
          uri,
          'botocore.exceptions.NoCredentialsError: Unable to locate credentials',
        ),
      },
    });
    const f = report.findings.find((x) => x.code === 'STORAGE_ACCESS_DENIED')!;
    expect(f).toMatchObject({ severity: 'error', subject: SUBJECT });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'field',
        container: 'storage-initializer',
        text: expect.stringMatching(/^storage-initializer env: none: no AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY/),
      }),
    );
  });

  it('reports a gated Hugging Face repository, and a scheme the release does not know unless it means a missing pvc:// path', async () => {
    const hf = 'hf://meta-llama/meta-llama-3-8b-instruct';
    const gated = await runPlaybook(storageInitializer, [isvc(hf), pod(hf, { release: 'v0.15.0' })], TARGET, {
      logs: {
        [`${NS}/${POD}/storage-initializer`]: initializerLog(
          hf,
          'huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-67fe2a31-4b1c2d3e5f60718293a4b5c6)',
          '',
          'Cannot access gated repo for url https://huggingface.co/api/models/meta-llama/meta-llama-3-8b-instruct/revision/main.',
        ),
      },
    });
    expect(ours(gated.report.findings)).toContain('MODEL_HUB_ACCESS_DENIED');
    expect(ours(gated.report.findings)).not.toContain('STORAGE_ACCESS_DENIED');
    expect(gated.report.findings.find((f) => f.code === 'MODEL_HUB_ACCESS_DENIED')).toMatchObject({
      subject: SUBJECT,
    });

    // KServe before 0.8 has no pvc:// loader of its own: a missing path on the claim reads as an unknown scheme
    const unknown = (path: string) =>
      initializerLog(
        path,
        '  File "/usr/local/lib/python3.7/site-packages/kserve/storage.py", line 83, in download',
        `Exception: Cannot recognize storage type for ${path}`,
        "'gs://', 's3://', 'file://', and 'http(s)://' are the current available storage type.",
      );
    const pvc = await runPlaybook(
      storageInitializer,
      [isvc('pvc://inf-pvc/export'), pod('pvc://inf-pvc/export', { release: 'v0.7.0' })],
      TARGET,
      { logs: { [`${NS}/${POD}/storage-initializer`]: unknown('/mnt/pvc/export') } },
    );
    expect(ours(pvc.report.findings).sort()).toEqual(['STORAGE_INIT_FAILED', 'STORAGE_URI_NOT_FOUND']);
    const oci = 'oci://quay.io/acme/sklearn-iris:v1';
    const scheme = await runPlaybook(storageInitializer, [isvc(oci), pod(oci, { release: 'v0.7.0' })], TARGET, {
      logs: { [`${NS}/${POD}/storage-initializer`]: unknown(oci) },
    });
    expect(ours(scheme.report.findings).sort()).toEqual(['STORAGE_INIT_FAILED', 'STORAGE_URI_UNSUPPORTED']);
    expect(scheme.report.findings.find((f) => f.code === 'STORAGE_URI_UNSUPPORTED')!.evidence).toContainEqual(
      logLine(`Exception: Cannot recognize storage type for ${oci}`),
    );
  });

  it('with the pods gone: what KServe copied into modelStatus, else the BackOff events of the init container', async () => {
    const copied = initializerLog(GS_URI, NOT_FOUND);
    const fromStatus = await runPlaybook(
      storageInitializer,
      [isvc(GS_URI, { modelStatus: { lastFailureInfo: { exitCode: 1, message: copied } } })],
      TARGET,
    );
    expect(ours(fromStatus.report.findings).sort()).toEqual(['STORAGE_INIT_FAILED', 'STORAGE_URI_NOT_FOUND']);
    const isvcRef = `InferenceService ${NS}/sklearn-iris`;
    expect(fromStatus.report.findings.find((f) => f.code === 'STORAGE_URI_NOT_FOUND')).toMatchObject({
      subject: isvcRef,
      component: 'predictor',
    });

    const event = (reason: string, message: string, type: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${POD}.${reason.toLowerCase()}`, namespace: NS },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        name: POD,
        namespace: NS,
        fieldPath: 'spec.initContainers{storage-initializer}',
      },
      reason,
      message,
      type,
      count: 41,
      firstTimestamp: '2023-10-02T13:40:09Z',
      lastTimestamp: '2023-10-02T13:50:01Z',
    });
    const fromEvents = await runPlaybook(
      storageInitializer,
      [isvc(GS_URI), event('BackOff', 'Back-off restarting failed container', 'Warning')],
      TARGET,
    );
    expect(ours(fromEvents.report.findings)).toEqual(['STORAGE_INIT_FAILED']);
    const f = fromEvents.report.findings.find((x) => x.code === 'STORAGE_INIT_FAILED')!;
    expect(f.subject).toBe(SUBJECT);
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ kind: 'event', text: 'BackOff: Back-off restarting failed container (x41)' }),
    );
  });

  it('leaves alone a pod whose storage-initializer completed, and a pod refused at creation (it never ran)', async () => {
    const healthy = await runPlaybook(storageInitializer, [isvc(GS_URI), pod(GS_URI, { failed: false })], TARGET, {
      logs: { [`${NS}/${POD}/storage-initializer`]: initializerLog(GS_URI) },
    });
    expect(ours(healthy.report.findings)).toEqual([]);

    const refused = await runPlaybook(
      storageInitializer,
      [
        isvc(GS_URI),
        {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'sklearn-iris-predictor-00001-deployment-xws5bzv8g6.failedcreate', namespace: NS },
          involvedObject: {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'sklearn-iris-predictor-00001-deployment-xws5bzv8g6',
            namespace: NS,
          },
          reason: 'FailedCreate',
          message:
            'Error creating: pods "sklearn-iris-predictor-00001-deployment-xws5bzv8g6-w7sld" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "storage-initializer" must set securityContext.allowPrivilegeEscalation=false)',
          type: 'Warning',
          count: 12,
        },
      ],
      TARGET,
    );
    expect(ours(refused.report.findings)).toEqual([]);
  });
});
