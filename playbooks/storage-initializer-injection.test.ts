/**
 * storage-initializer-injection on a pod that should download its model (the storage-initializer
 * sourceuri annotation) but has no storage-initializer: the namespace's labels against the KServe pod
 * webhook's namespaceSelector decide what is said. A control-plane namespace the webhook skips is
 * left for another namespace; a label the selector asks for is added by the exact `kubectl label`; a
 * webhook that serves the namespace yet did not act names its service's endpoints; no webhook at all
 * is installed. A pod with its storage-initializer, or one the local model cache serves, is left alone.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { storageInitializerInjection } from './storage-initializer-injection.js';

const NS = 'ml';
const TARGET = { namespace: NS, name: 'flowers' };
const POD = 'flowers-predictor-00001-deployment-7c9d8b6f5d-x2k4p';
const SOURCE = 'internal.serving.kserve.io/storage-initializer-sourceuri';

const isvc = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'flowers', namespace: NS, generation: 1 },
  spec: { predictor: { tensorflow: { storageUri: 'gs://kfserving-examples/models/tensorflow/flowers' } } },
  status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'False', reason: 'RevisionMissing' }] },
};

function pod(opts: { initContainers?: string[]; labels?: Record<string, string> } = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD,
      namespace: NS,
      labels: {
        'serving.kserve.io/inferenceservice': 'flowers',
        component: 'predictor',
        'serving.knative.dev/revision': 'flowers-predictor-00001',
        ...opts.labels,
      },
      annotations: { [SOURCE]: 'gs://kfserving-examples/models/tensorflow/flowers' },
    },
    spec: {
      initContainers: (opts.initContainers ?? []).map((name) => ({
        name,
        image: 'kserve/storage-initializer:v0.14.0',
      })),
      containers: [{ name: 'kserve-container', image: 'tensorflow/serving:2.6.2' }],
    },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'kserve-container',
          image: 'tensorflow/serving:2.6.2',
          ready: false,
          restartCount: 0,
          state: { running: { startedAt: '2026-09-01T10:00:00Z' } },
        },
      ],
    },
  };
}

const namespace = (labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: NS, labels },
});

function webhook(namespaceSelector: Record<string, unknown>) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'inferenceservice.serving.kserve.io' },
    webhooks: [
      {
        name: 'inferenceservice.kserve-webhook-server.pod-mutator',
        admissionReviewVersions: ['v1beta1'],
        clientConfig: { service: { name: 'kserve-webhook-server-service', namespace: 'kserve', path: '/mutate-pods' } },
        failurePolicy: 'Fail',
        namespaceSelector,
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
        sideEffects: 'None',
      },
    ],
  };
}

const SKIPS_CONTROL_PLANE = { matchExpressions: [{ key: 'control-plane', operator: 'DoesNotExist' }] };

async function finding(objects: Record<string, unknown>[]) {
  const { report } = await runPlaybook(storageInitializerInjection, [isvc, ...objects], TARGET);
  return report.findings.filter((f) => f.code === 'STORAGE_INITIALIZER_NOT_INJECTED');
}

describe('storage-initializer-injection', () => {
  it('a control-plane namespace the webhook skips: the pod, the label that decides, and another namespace', async () => {
    const [f, ...rest] = await finding([
      pod(),
      namespace({ 'control-plane': 'kubeflow' }),
      webhook(SKIPS_CONTROL_PLANE),
    ]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'error', subject: `Pod ${NS}/${POD}`, component: 'predictor' });
    expect(f!.evidence.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        `${SOURCE}: gs://kfserving-examples/models/tensorflow/flowers`,
        'initContainers: [] (none)',
        'labels: control-plane=kubeflow',
      ]),
    );
    expect(f!.evidence.find((e) => e.ref?.startsWith('MutatingWebhookConfiguration'))?.text).toContain(
      `skips namespace ${NS}`,
    );
    expect(f!.next).toContain('in a namespace without the control-plane label');
  });

  it('a label the selector asks for: the exact kubectl label, then the pod re-created', async () => {
    const [f] = await finding([
      pod(),
      namespace({}),
      webhook({ matchLabels: { 'serving.kserve.io/inferenceservice': 'enabled' } }),
    ]);
    expect(f!.next).toContain(`kubectl label namespace ${NS} serving.kserve.io/inferenceservice=enabled --overwrite`);
    expect(f!.next).toContain(`kubectl delete pod ${POD} -n ${NS}`);
  });

  it("a webhook that serves the namespace yet did not act: its service's endpoints", async () => {
    const [f] = await finding([pod(), namespace({}), webhook(SKIPS_CONTROL_PLANE)]);
    expect(f!.evidence.find((e) => e.ref?.startsWith('MutatingWebhookConfiguration'))?.text).not.toContain('skips');
    expect(f!.next).toContain('kubectl get endpoints kserve-webhook-server-service -n kserve');
  });

  it('no KServe pod webhook installed: it says so, and to install it', async () => {
    const [f] = await finding([pod(), namespace({})]);
    expect(f!.evidence.map((e) => e.text)).toContain(
      'no KServe / KFServing pod webhook is installed: nothing injects the storage-initializer',
    );
    expect(f!.next).toMatch(/^install KServe's pod webhook/);
  });

  it('leaves alone a pod with its storage-initializer, and one the local model cache serves', async () => {
    const objects = [namespace({ 'control-plane': 'kubeflow' }), webhook(SKIPS_CONTROL_PLANE)];
    expect(await finding([pod({ initContainers: ['storage-initializer'] }), ...objects])).toEqual([]);
    expect(
      await finding([pod({ labels: { 'internal.serving.kserve.io/localmodel': 'flowers-cache' } }), ...objects]),
    ).toEqual([]);
  });
});
