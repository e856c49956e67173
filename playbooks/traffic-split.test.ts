/**
 * traffic-split on an InferenceService's Knative Services and Revisions: the Knative Service's traffic
 * targets and canaryTrafficPercent decide TRAFFIC_SPLIT (with the share Knative holds back on the old
 * revision while the latest is not ready); a canary percent with a latest created revision that is not
 * ready while the previous one serves decides CANARY_UNHEALTHY with the rollback offered; a v1alpha2
 * "-canary" Knative Service not ready next to a ready "-default" one is the canary too, and left out of
 * the route (RoutesReady PredictorHostnameUnknown) nothing is offered; without a canary the same
 * revisions are a failed rollout (ROLLOUT_FAILED); an Iter8 VirtualService named after the app shows
 * its routes as the split.
 */
import { describe, expect, it } from '@jest/globals';
import { runPlaybook } from '../test/support/run-playbook.js';
import { trafficSplit } from './traffic-split.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const SUBJECT = 'InferenceService ml/iris';
const KSVC = 'Knative Service ml/iris-predictor';
const PREV = 'iris-predictor-00001';
const NEXT = 'iris-predictor-00002';

type Condition = { type: string; status: string; reason?: string; message?: string };
type Target = { revisionName: string; percent: number; tag?: string; latestRevision?: boolean };

function isvc(opts: { canaryTrafficPercent?: number; labels?: Record<string, string>; ready?: boolean } = {}) {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'iris', namespace: 'ml', generation: 2, ...(opts.labels ? { labels: opts.labels } : {}) },
    spec: {
      predictor: {
        ...(opts.canaryTrafficPercent === undefined ? {} : { canaryTrafficPercent: opts.canaryTrafficPercent }),
        model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://models/iris/v2' },
      },
    },
    status: {
      observedGeneration: 2,
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  };
}

function ksvc(name: string, traffic: Target[], latestCreated: string, latestReady?: string, ready = true) {
  return {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Service',
    metadata: {
      name,
      namespace: 'ml',
      labels: { 'serving.kserve.io/inferenceservice': 'iris', component: 'predictor' },
    },
    spec: { template: { spec: { containers: [{ name: 'kserve-container', image: 'kserve/sklearnserver:v0.14.1' }] } } },
    status: {
      observedGeneration: 2,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', ...(ready ? {} : { reason: 'RevisionFailed' }) }],
      latestCreatedRevisionName: latestCreated,
      ...(latestReady ? { latestReadyRevisionName: latestReady } : {}),
      traffic,
    },
  };
}

function revision(name: string, service: string, generation: number, ready: Condition, storageUri: string) {
  return {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Revision',
    metadata: {
      name,
      namespace: 'ml',
      annotations: { 'internal.serving.kserve.io/storage-initializer-sourceuri': storageUri },
      labels: {
        'serving.kserve.io/inferenceservice': 'iris',
        component: 'predictor',
        'serving.knative.dev/service': service,
        'serving.knative.dev/configuration': service,
        'serving.knative.dev/configurationGeneration': String(generation),
      },
    },
    spec: { containers: [{ name: 'kserve-container', image: 'kserve/sklearnserver:v0.14.1' }] },
    status: { observedGeneration: 1, conditions: [ready], serviceName: name },
  };
}

const READY: Condition = { type: 'Ready', status: 'True' };
const FAILED: Condition = {
  type: 'Ready',
  status: 'False',
  reason: 'ProgressDeadlineExceeded',
  message: 'Initial scale was never achieved',
};

/** Knative while the latest revision is not ready: its `latestRevision` share still goes to the previous one. */
const HELD_BACK: Target[] = [
  { revisionName: PREV, percent: 90, tag: 'prev' },
  { revisionName: PREV, percent: 10, tag: 'latest', latestRevision: true },
];

const emitted = (codes: string[]) => codes.filter((c) => trafficSplit.emits.includes(c as never));

describe('traffic-split', () => {
  it('shows a healthy canary split from the Knative Service traffic and canaryTrafficPercent', async () => {
    const { report } = await runPlaybook(
      trafficSplit,
      [
        isvc({ canaryTrafficPercent: 10 }),
        ksvc(
          'iris-predictor',
          [
            { revisionName: PREV, percent: 90, tag: 'prev' },
            { revisionName: NEXT, percent: 10, tag: 'latest', latestRevision: true },
          ],
          NEXT,
          NEXT,
        ),
        revision(PREV, 'iris-predictor', 1, READY, 'gs://models/iris/v1'),
        revision(NEXT, 'iris-predictor', 2, READY, 'gs://models/iris/v2'),
      ],
      TARGET,
    );
    expect(emitted(report.findings.map((f) => f.code))).toEqual(['TRAFFIC_SPLIT']);
    const f = report.findings.find((x) => x.code === 'TRAFFIC_SPLIT')!;
    expect(f).toMatchObject({ severity: 'info', subject: SUBJECT });
    expect(f.evidence.map((e) => [e.ref, e.text])).toEqual([
      [SUBJECT, 'canaryTrafficPercent: 10'],
      [KSVC, `${PREV} (prev): 90%`],
      [KSVC, `${NEXT} (latest): 10%`],
    ]);
  });

  it('reports a canary revision that fails while the previous one serves, and offers the rollback', async () => {
    const { report } = await runPlaybook(
      trafficSplit,
      [
        isvc({ canaryTrafficPercent: 10 }),
        ksvc('iris-predictor', HELD_BACK, NEXT, PREV),
        revision(PREV, 'iris-predictor', 1, READY, 'gs://models/iris/v1'),
        revision(NEXT, 'iris-predictor', 2, FAILED, 'gs://models/iris/v2'),
      ],
      TARGET,
    );
    const split = report.findings.find((x) => x.code === 'TRAFFIC_SPLIT')!;
    // the canary's share is held back on the previous revision, and the split says so
    expect(split.evidence).toContainEqual(
      expect.objectContaining({
        ref: KSVC,
        text: expect.stringMatching(
          new RegExp(`^${PREV} \\(latest\\): 10% \\(the latest revision, ${NEXT}, is not ready`),
        ),
      }),
    );
    const f = report.findings.find((x) => x.code === 'CANARY_UNHEALTHY')!;
    expect(f).toMatchObject({
      severity: 'error',
      subject: `Revision ml/${NEXT}`,
      component: 'predictor',
      revision: NEXT,
    });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ ref: KSVC, text: `split: 90% to ${PREV}, 10% to ${NEXT}` }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'condition',
        ref: `Revision ml/${NEXT}`,
        text: expect.stringMatching(/^Ready=False \(ProgressDeadlineExceeded\)/),
      }),
    );
    expect(f.remediation).toMatchObject({
      action: 'rollback-canary',
      target: SUBJECT,
      needsApproval: true,
      params: { previous: PREV, canary: NEXT, from: 10 },
    });
    expect(report.findings.map((x) => x.code)).not.toContain('ROLLOUT_FAILED');
  });

  it('without a canary, reports the same revisions as a failed rollout while the previous one serves', async () => {
    const { report } = await runPlaybook(
      trafficSplit,
      [
        isvc(),
        ksvc('iris-predictor', [{ revisionName: PREV, percent: 100, latestRevision: true }], NEXT, PREV),
        revision(PREV, 'iris-predictor', 1, READY, 'gs://models/iris/v1'),
        revision(NEXT, 'iris-predictor', 2, FAILED, 'gs://models/iris/v2'),
      ],
      TARGET,
    );
    expect(emitted(report.findings.map((x) => x.code))).toEqual(['ROLLOUT_FAILED']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: `Revision ml/${NEXT}`, revision: NEXT });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        ref: KSVC,
        text: `traffic: ${PREV} (latest ready) 100%; ${NEXT} (latest created) not ready, no traffic`,
      }),
    );
  });

  it('reports a v1alpha2 canary Knative Service left out of the route, with nothing to roll back', async () => {
    const canaryRev = 'iris-predictor-canary-tn7kd';
    const defaultRev = 'iris-predictor-default-8bp2x';
    const v1alpha2 = {
      apiVersion: 'serving.kubeflow.org/v1alpha2',
      kind: 'InferenceService',
      metadata: { name: 'iris', namespace: 'ml', generation: 2 },
      spec: {
        default: { predictor: { sklearn: { storageUri: 'gs://models/iris/v1' } } },
        canary: { predictor: { sklearn: { storageUri: 'gs://models/iris/v2' } } },
        canaryTrafficPercent: 20,
      },
      status: {
        conditions: [
          { type: 'CanaryPredictorReady', status: 'False', reason: 'RevisionFailed' },
          { type: 'DefaultPredictorReady', status: 'True' },
          { type: 'Ready', status: 'False', reason: 'PredictorHostnameUnknown' },
          {
            type: 'RoutesReady',
            status: 'False',
            reason: 'PredictorHostnameUnknown',
            message: 'Failed to reconcile predictor',
          },
        ],
        traffic: 100,
      },
    };
    const labelled = (o: ReturnType<typeof ksvc>) => ({
      ...o,
      metadata: { ...o.metadata, labels: { 'serving.kubeflow.org/inferenceservice': 'iris', component: 'predictor' } },
    });
    const { report } = await runPlaybook(
      trafficSplit,
      [
        v1alpha2,
        labelled(ksvc('iris-predictor-default', [{ revisionName: defaultRev, percent: 100 }], defaultRev, defaultRev)),
        labelled(ksvc('iris-predictor-canary', [], canaryRev, undefined, false)),
        revision(defaultRev, 'iris-predictor-default', 1, READY, 'gs://models/iris/v1'),
        revision(canaryRev, 'iris-predictor-canary', 1, FAILED, 'gs://models/iris/v2'),
      ],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'CANARY_UNHEALTHY')!;
    expect(f).toMatchObject({ subject: `Revision ml/${canaryRev}`, remediation: null });
    // the deciding status field leads
    expect(f.evidence[0]).toMatchObject({
      kind: 'field',
      ref: SUBJECT,
      text: expect.stringMatching(/^RoutesReady=False \(PredictorHostnameUnknown\)/),
    });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        ref: 'Knative Service ml/iris-predictor-canary',
        text: expect.stringContaining(`the route sends 100% to ${defaultRev} and none to ${canaryRev}`),
      }),
    );
    expect(f.next).toContain('remove spec.canary');
  });

  it("shows an Iter8 VirtualService's routes between the primary and the candidate as the split", async () => {
    const { report } = await runPlaybook(
      trafficSplit,
      [
        isvc({ labels: { 'app.kubernetes.io/name': 'wisdom', 'iter8.tools/watch': 'true' } }),
        ksvc('iris-predictor', [{ revisionName: PREV, percent: 100, latestRevision: true }], PREV, PREV),
        revision(PREV, 'iris-predictor', 1, READY, 'gs://models/iris/v1'),
        {
          apiVersion: 'networking.istio.io/v1beta1',
          kind: 'VirtualService',
          metadata: { name: 'wisdom', namespace: 'ml' },
          spec: {
            gateways: ['knative-serving/knative-local-gateway', 'mesh'],
            hosts: ['wisdom.ml', 'wisdom.ml.svc.cluster.local'],
            http: [
              {
                name: 'iris-candidate',
                match: [{ headers: { traffic: { exact: 'test' } } }],
                route: [
                  {
                    destination: { host: 'knative-local-gateway.istio-system.svc.cluster.local' },
                    headers: { request: { set: { Host: 'iris-candidate-predictor.ml.svc.cluster.local' } } },
                  },
                ],
              },
              {
                name: 'iris',
                route: [
                  {
                    destination: { host: 'knative-local-gateway.istio-system.svc.cluster.local' },
                    headers: { request: { set: { Host: 'iris-predictor.ml.svc.cluster.local' } } },
                  },
                ],
              },
            ],
          },
        },
      ],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'TRAFFIC_SPLIT')!;
    expect(f.subject).toBe(SUBJECT);
    expect(f.evidence.map((e) => [e.ref, e.text])).toEqual([
      [
        'VirtualService ml/wisdom',
        'route iris-candidate: header traffic exact test -> iris-candidate-predictor.ml.svc.cluster.local',
      ],
      ['VirtualService ml/wisdom', 'route iris: all other requests -> iris-predictor.ml.svc.cluster.local'],
    ]);
  });

  it('reports a Standard-mode canary whose Deployment is not ready, and offers removing its spec.canary entry', async () => {
    const standard = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: {
        name: 'iris',
        namespace: 'ml',
        generation: 2,
        annotations: { 'serving.kserve.io/deploymentMode': 'Standard' },
      },
      spec: {
        predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://models/iris/v1' } },
        canary: [
          {
            trafficPercent: 20,
            predictor: { name: 'v2', model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://models/iris/v2' } },
          },
        ],
      },
      status: {
        observedGeneration: 2,
        deploymentMode: 'Standard',
        conditions: [
          { type: 'CanaryPredictorReady', status: 'False', reason: 'MinimumReplicasUnavailable' },
          { type: 'PredictorReady', status: 'True' },
          { type: 'Ready', status: 'True' },
        ],
        canaryStatuses: [{ name: 'v2', ready: false, trafficPercent: 20 }],
      },
    };
    const deployment = (name: string, available: number) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name,
        namespace: 'ml',
        labels: { 'serving.kserve.io/inferenceservice': 'iris', component: 'predictor' },
      },
      spec: { replicas: 1 },
      status: { replicas: 1, availableReplicas: available },
    });
    const { report } = await runPlaybook(
      trafficSplit,
      [
        standard,
        deployment('iris-predictor', 1),
        deployment('iris-v2-predictor', 0),
        {
          apiVersion: 'gateway.networking.k8s.io/v1',
          kind: 'HTTPRoute',
          metadata: { name: 'iris-predictor', namespace: 'ml' },
          spec: {
            parentRefs: [{ name: 'kserve-ingress-gateway', namespace: 'kserve' }],
            rules: [{ backendRefs: [{ name: 'iris-predictor', port: 80, weight: 100 }] }],
          },
        },
      ],
      TARGET,
    );
    const split = report.findings.find((x) => x.code === 'TRAFFIC_SPLIT')!;
    expect(split.evidence).toContainEqual(
      expect.objectContaining({
        ref: 'HTTPRoute ml/iris-predictor',
        text: 'weights: iris-predictor 100 → iris-predictor (stable) 100%, iris-v2-predictor (canary v2) 0%',
      }),
    );
    const f = report.findings.find((x) => x.code === 'CANARY_UNHEALTHY')!;
    expect(f).toMatchObject({ severity: 'error', subject: 'Deployment ml/iris-v2-predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ ref: 'Deployment ml/iris-v2-predictor', text: '0 of 1 replicas available' }),
    );
    expect(f.remediation).toMatchObject({
      action: 'rollback-canary',
      target: SUBJECT,
      params: { previous: 'iris-predictor', canary: 'iris-v2-predictor', from: 20 },
      diff: expect.arrayContaining([expect.stringContaining('spec.canary[0] (predictor.name v2')]),
    });
  });

  it('finds nothing for one ready revision taking all the traffic, nor for a new revision still starting', async () => {
    const single = await runPlaybook(
      trafficSplit,
      [
        isvc(),
        ksvc('iris-predictor', [{ revisionName: PREV, percent: 100, latestRevision: true }], PREV, PREV),
        revision(PREV, 'iris-predictor', 1, READY, 'gs://models/iris/v1'),
      ],
      TARGET,
    );
    expect(single.codes).toEqual(['ISVC_READY']);
    const starting = await runPlaybook(
      trafficSplit,
      [
        isvc(),
        ksvc('iris-predictor', [{ revisionName: PREV, percent: 100, latestRevision: true }], NEXT, PREV),
        revision(PREV, 'iris-predictor', 1, READY, 'gs://models/iris/v1'),
        revision(
          NEXT,
          'iris-predictor',
          2,
          { type: 'Ready', status: 'Unknown', reason: 'Deploying' },
          'gs://models/iris/v2',
        ),
      ],
      TARGET,
    );
    expect(emitted(starting.codes)).toEqual([]);
  });
});
