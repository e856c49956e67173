/**
 * knative-service on the Knative Service and Revision an InferenceService runs as: the Service's
 * IngressNotConfigured reason decides INGRESS_NOT_CONFIGURED, its RevisionMissing reason or a latest
 * created revision that is not Ready decides REVISION_MISSING (on the revision), a revision reason
 * ExitCode137 decides OOM_KILLED with the memory limit's raise offered; a revision scaled to zero by
 * its progress deadline with minScale 0 and no pod left is said as such, from the Deployment's events.
 */
import { describe, expect, it } from '@jest/globals';
import type { Cond as Condition } from '../test/support/condition.js';
import { irisKnativeService } from '../test/support/iris-knative-service.js';
import { runPlaybook } from '../test/support/run-playbook.js';
import { knativeService } from './knative-service.js';

const TARGET = { namespace: 'ml', name: 'iris' };
const KSVC = 'Knative Service ml/iris-predictor';
const REV = 'iris-predictor-00001';

const isvc = (ready: boolean) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'iris', namespace: 'ml', generation: 1 },
  spec: {
    predictor: {
      model: {
        modelFormat: { name: 'sklearn' },
        storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model',
        resources: { limits: { memory: '256Mi' }, requests: { memory: '256Mi' } },
      },
    },
  },
  status: {
    observedGeneration: 1,
    conditions: [
      ready ? { type: 'Ready', status: 'True' } : { type: 'Ready', status: 'False', reason: 'RevisionMissing' },
    ],
  },
});

function ksvc(conditions: Condition[], latestReady?: string) {
  return irisKnativeService({
    observedGeneration: 1,
    conditions,
    latestCreatedRevisionName: REV,
    ...(latestReady ? { latestReadyRevisionName: latestReady } : {}),
    url: 'http://iris-predictor.ml.example.com',
  });
}

function revision(conditions: Condition[], annotations: Record<string, string> = {}) {
  return {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Revision',
    metadata: {
      name: REV,
      namespace: 'ml',
      annotations,
      labels: {
        'serving.kserve.io/inferenceservice': 'iris',
        component: 'predictor',
        'serving.knative.dev/service': 'iris-predictor',
        'serving.knative.dev/configuration': 'iris-predictor',
        'serving.knative.dev/configurationGeneration': '1',
      },
    },
    spec: { containers: [{ name: 'kserve-container', image: 'kserve/sklearnserver:v0.14.1' }] },
    status: { observedGeneration: 1, conditions, serviceName: REV },
  };
}

function event(kind: string, name: string, reason: string, message: string, at: string) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${at.replace(/\D/g, '')}`, namespace: 'ml' },
    involvedObject: { kind, name, namespace: 'ml' },
    type: reason === 'ScalingReplicaSet' ? 'Normal' : 'Warning',
    reason,
    message,
    lastTimestamp: at,
  };
}

const READY: Condition[] = [
  { type: 'ConfigurationsReady', status: 'True' },
  { type: 'Ready', status: 'True' },
  { type: 'RoutesReady', status: 'True' },
];
const REVISION_MISSING: Condition[] = [
  { type: 'ConfigurationsReady', status: 'False', reason: 'RevisionFailed' },
  {
    type: 'Ready',
    status: 'False',
    reason: 'RevisionMissing',
    message: 'Configuration "iris-predictor" does not have any ready Revision.',
  },
  { type: 'RoutesReady', status: 'False', reason: 'RevisionMissing' },
];
const INGRESS_NOT_CONFIGURED: Condition[] = [
  { type: 'ConfigurationsReady', status: 'True' },
  { type: 'Ready', status: 'Unknown', reason: 'IngressNotConfigured', message: 'Ingress has not yet been reconciled.' },
  {
    type: 'RoutesReady',
    status: 'Unknown',
    reason: 'IngressNotConfigured',
    message: 'Ingress has not yet been reconciled.',
  },
];

describe('knative-service', () => {
  it('reports IngressNotConfigured on the Knative Service, with the condition that says it', async () => {
    const { report } = await runPlaybook(
      knativeService,
      [isvc(false), ksvc(INGRESS_NOT_CONFIGURED, REV), revision([{ type: 'Ready', status: 'True' }])],
      TARGET,
    );
    expect(report.findings.map((f) => f.code)).toEqual(['INGRESS_NOT_CONFIGURED']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({ severity: 'error', subject: KSVC, component: 'predictor' });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'condition',
        ref: KSVC,
        text: expect.stringMatching(/^Ready=Unknown \(IngressNotConfigured\)/),
      }),
    );
  });

  it('reports the latest revision that is not ready on the revision, with its own Ready condition', async () => {
    const { report } = await runPlaybook(
      knativeService,
      [
        isvc(false),
        ksvc(REVISION_MISSING),
        revision([
          {
            type: 'Ready',
            status: 'False',
            reason: 'ContainerMissing',
            message: 'Unable to fetch image "kserve/sklearnserver:v0.14.1": manifest unknown',
          },
        ]),
      ],
      TARGET,
    );
    expect(report.findings.map((f) => f.code)).toEqual(['REVISION_MISSING']);
    const f = report.findings[0]!;
    expect(f).toMatchObject({ subject: `Revision ml/${REV}`, component: 'predictor', revision: REV });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'condition',
        ref: KSVC,
        text: expect.stringMatching(/^Ready=False \(RevisionMissing\)/),
      }),
    );
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'condition',
        ref: `Revision ml/${REV}`,
        text: expect.stringMatching(/^Ready=False \(ContainerMissing\)/),
      }),
    );
  });

  it('reports a revision that failed with ExitCode137 as OOM_KILLED and offers to raise the memory limit', async () => {
    const { report } = await runPlaybook(
      knativeService,
      [
        isvc(false),
        ksvc(REVISION_MISSING),
        revision([
          { type: 'ContainerHealthy', status: 'False', reason: 'ExitCode137', message: 'Container failed with: ' },
          { type: 'Ready', status: 'False', reason: 'ExitCode137', message: 'Container failed with: ' },
        ]),
      ],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'OOM_KILLED')!;
    expect(f).toMatchObject({
      severity: 'error',
      subject: `Revision ml/${REV}`,
      component: 'predictor',
      revision: REV,
    });
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'condition',
        text: expect.stringMatching(/^ContainerHealthy=False \(ExitCode137\)/),
      }),
    );
    expect(f.remediation).toMatchObject({
      action: 'raise-memory-limit',
      target: 'InferenceService ml/iris',
      needsApproval: true,
      params: expect.objectContaining({ from: '256Mi', to: '512Mi' }),
    });
    expect(report.findings.map((x) => x.code)).toContain('REVISION_MISSING');
  });

  it('says a revision with minScale 0 was scaled to zero before its first pod was ready, from the events', async () => {
    const deployment = `${REV}-deployment`;
    const { report } = await runPlaybook(
      knativeService,
      [
        isvc(false),
        ksvc(REVISION_MISSING),
        revision(
          [
            {
              type: 'Ready',
              status: 'False',
              reason: 'ProgressDeadlineExceeded',
              message: 'Initial scale was never achieved',
            },
          ],
          { 'autoscaling.knative.dev/minScale': '0' },
        ),
        event(
          'Pod',
          `${deployment}-7d9f8-abcde`,
          'FailedScheduling',
          '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.',
          '2026-11-02T09:00:10Z',
        ),
        event(
          'Pod',
          `${deployment}-7d9f8-abcde`,
          'Killing',
          'Stopping container kserve-container',
          '2026-11-02T09:10:00Z',
        ),
        event(
          'Deployment',
          deployment,
          'ScalingReplicaSet',
          `Scaled down replica set ${deployment}-7d9f8 to 0 from 1`,
          '2026-11-02T09:10:00Z',
        ),
      ],
      TARGET,
    );
    const f = report.findings.find((x) => x.code === 'REVISION_MISSING')!;
    expect(f.subject).toBe(`Revision ml/${REV}`);
    expect(f.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'field',
        text: expect.stringMatching(/^autoscaling\.knative\.dev\/minScale: 0;/),
      }),
    );
    expect(f.evidence.filter((e) => e.kind === 'event').map((e) => e.text)).toEqual([
      'FailedScheduling: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.',
      'Killing: Stopping container kserve-container',
      `ScalingReplicaSet: Scaled down replica set ${deployment}-7d9f8 to 0 from 1`,
    ]);
    expect(f.next).toContain('minReplicas');
  });

  it('finds nothing on a ready Knative Service whose latest revision is ready, nor on a RawDeployment service', async () => {
    const ready = await runPlaybook(
      knativeService,
      [isvc(true), ksvc(READY, REV), revision([{ type: 'Ready', status: 'True' }])],
      TARGET,
    );
    expect(ready.codes).toEqual(['ISVC_READY']);
    const raw = {
      ...isvc(false),
      metadata: {
        ...isvc(false).metadata,
        annotations: { 'serving.kserve.io/deploymentMode': 'RawDeployment' },
      },
    };
    const rawRun = await runPlaybook(knativeService, [raw, ksvc(REVISION_MISSING), revision([])], TARGET);
    expect(rawRun.codes.filter((c) => knativeService.emits.includes(c as never))).toEqual([]);
  });
});
