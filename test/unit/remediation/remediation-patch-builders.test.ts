/**
 * Unit tests: the memory cap (configured maximum, LimitRange max and maxLimitRequestRatio), the
 * field diff, and each action's plan against the simulator (the merge patch it would send, the
 * changed fields, dryRun=All, no write), for v1alpha2 and v1beta1 shapes.
 */
import path from 'node:path';
import type { V1LimitRange } from '@kubernetes/client-node';
import { diffLines, fieldChanges } from '../../../src/changes/field-changes.js';
import { raisedMemory } from '../../../src/changes/memory-cap.js';
import { makeKubeClients, kubeConfigForServer } from '../../../src/kube/client.js';
import { ClusterWriter } from '../../../src/kube/cluster-writer.js';
import { actionById } from '../../../src/remediation/actions/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/simulator.js';
import { loadSnapshot } from '../../../src/snapshot/load-snapshot.js';

const GI = 1024 ** 3;
const lr = (max?: string, ratio?: string): V1LimitRange => ({
  metadata: { name: 'mem' },
  spec: {
    limits: [
      {
        type: 'Container',
        ...(max ? { max: { memory: max } } : {}),
        ...(ratio ? { maxLimitRequestRatio: { memory: ratio } } : {}),
      },
    ],
  },
});

describe('raisedMemory', () => {
  it('doubles the limit and keeps a Guaranteed request equal to it', () => {
    expect(raisedMemory({ limit: '256Mi', request: '256Mi', maxBytes: 16 * GI, limitRanges: [] })).toEqual({
      limit: '512Mi',
      request: '512Mi',
    });
  });
  it('leaves a lower request alone', () => {
    expect(raisedMemory({ limit: '1Gi', request: '512Mi', maxBytes: 16 * GI, limitRanges: [] })).toEqual({
      limit: '2Gi',
    });
  });
  it('caps by the configured maximum and the LimitRange, whichever is lower', () => {
    expect(raisedMemory({ limit: '6Gi', maxBytes: 8 * GI, limitRanges: [] })).toEqual({
      limit: '8Gi',
      cappedBy: 'the configured maximum 8Gi',
    });
    expect(raisedMemory({ limit: '6Gi', maxBytes: 16 * GI, limitRanges: [lr('10Gi')] })).toEqual({
      limit: '10Gi',
      cappedBy: 'LimitRange mem (max 10Gi)',
    });
  });
  it('raises the request when maxLimitRequestRatio would be exceeded', () => {
    expect(
      raisedMemory({ limit: '2Gi', request: '1Gi', maxBytes: 16 * GI, limitRanges: [lr(undefined, '2')] }),
    ).toEqual({ limit: '4Gi', request: '2Gi' });
  });
  it('refuses when already at the cap', () => {
    expect(() => raisedMemory({ limit: '8Gi', maxBytes: 8 * GI, limitRanges: [] })).toThrow(
      expect.objectContaining({ code: 'REMEDIATION_AT_LIMIT' }),
    );
  });
  it('starts from 2Gi when nothing is set', () => {
    expect(raisedMemory({ maxBytes: 16 * GI, limitRanges: [] })).toEqual({ limit: '2Gi' });
  });
});

describe('fieldChanges / diffLines', () => {
  it('lists changed leaves under spec and data, not metadata or status', () => {
    const before = { metadata: { resourceVersion: '1' }, spec: { a: { b: 1, c: [1] } }, status: { x: 1 } };
    const after = { metadata: { resourceVersion: '2' }, spec: { a: { b: 2, c: [1], d: 'new' } }, status: { x: 2 } };
    const changes = fieldChanges(before, after);
    expect(changes).toEqual([
      { path: 'spec.a.b', before: 1, after: 2 },
      { path: 'spec.a.d', before: undefined, after: 'new' },
    ]);
    expect(diffLines(changes)).toEqual(['  spec.a.b:', '-   1', '+   2', '  spec.a.d:', '-   (not set)', '+   new']);
  });
});

describe('action plans against the simulator', () => {
  const sims: RunningSimulator[] = [];
  afterAll(async () => {
    for (const s of sims) await s.close();
  });
  async function planFor(
    scenario: string,
    target: { namespace: string; name: string },
    action: string,
    params: Record<string, unknown>,
  ) {
    const sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios', scenario)) });
    sims.push(sim);
    const writer = new ClusterWriter(makeKubeClients(kubeConfigForServer(sim.url)));
    const a = actionById(action)!;
    const plan = await a.plan(
      { writer, target, settings: { maxMemoryBytes: 16 * GI, knativeNamespace: 'knative-serving' } },
      a.params.parse(params),
    );
    const realWrites = sim.requests.filter((r) => r.verb === 'patch' && r.query.dryRun === undefined);
    const dryRuns = sim.requests.filter((r) => r.verb === 'patch' && r.query.dryRun === 'All');
    return { plan, realWrites, dryRuns };
  }

  it('raise-memory-limit (v1alpha2): merge patch on the component resources, pinned to the resourceVersion', async () => {
    const { plan, realWrites, dryRuns } = await planFor(
      'oom-exit-code-137',
      { namespace: 'default', name: 'sklearn-iris' },
      'raise-memory-limit',
      { component: 'predictor', path: ['spec', 'default', 'predictor', 'sklearn', 'resources'] },
    );
    expect(plan.write).toEqual({
      kind: 'patch',
      target: {
        apiVersion: 'serving.kubeflow.org/v1alpha2',
        kind: 'InferenceService',
        namespace: 'default',
        name: 'sklearn-iris',
      },
      patchType: 'merge',
      patch: {
        spec: {
          default: {
            predictor: { sklearn: { resources: { limits: { memory: '512Mi' }, requests: { memory: '512Mi' } } } },
          },
        },
        metadata: { resourceVersion: plan.resourceVersion },
      },
    });
    expect(plan.changes.map((c) => [c.path, c.before, c.after])).toEqual([
      ['spec.default.predictor.sklearn.resources.limits.memory', '256Mi', '512Mi'],
      ['spec.default.predictor.sklearn.resources.requests.memory', '256Mi', '512Mi'],
    ]);
    expect(plan.risk).toBe('low');
    expect(dryRuns).toHaveLength(1);
    expect(realWrites).toHaveLength(0);
  });

  it('skip-tag-resolution: appends the registry and keeps the entries already there', async () => {
    const { plan, realWrites } = await planFor(
      'ecr-tag-resolution-401',
      { namespace: 'ml-prod', name: 'my-model' },
      'skip-tag-resolution',
      { registry: '123456789012.dkr.ecr.us-west-2.amazonaws.com' },
    );
    expect(plan.changes).toEqual([
      {
        path: 'data.registriesSkippingTagResolving',
        before: 'kind.local,ko.local,dev.local,registry.example.com',
        after: 'kind.local,ko.local,dev.local,registry.example.com,123456789012.dkr.ecr.us-west-2.amazonaws.com',
      },
    ]);
    expect(plan.target).toMatchObject({ kind: 'ConfigMap', namespace: 'knative-serving', name: 'config-deployment' });
    expect(plan.isvc).toMatchObject({ kind: 'InferenceService', namespace: 'ml-prod', name: 'my-model' });
    expect(plan.risk).toBe('medium');
    expect(realWrites).toHaveLength(0);
  });

  it('rollback-canary (v1beta1): canaryTrafficPercent 10 → 0', async () => {
    const { plan } = await planFor(
      'canary-new-revision-crashing',
      { namespace: 'default', name: 'sklearn-iris' },
      'rollback-canary',
      { previous: 'sklearn-iris-predictor-00001' },
    );
    expect(plan.changes).toEqual([{ path: 'spec.predictor.canaryTrafficPercent', before: 10, after: 0 }]);
  });

  it('rollback-canary (v1alpha2): drops spec.canary and canaryTrafficPercent', async () => {
    const { plan } = await planFor(
      'canary-split-healthy',
      { namespace: 'default', name: 'sklearn-iris' },
      'rollback-canary',
      {},
    );
    expect((plan.write as any).patch.spec).toEqual({ canary: null, canaryTrafficPercent: null });
    expect(plan.changes.map((c) => c.path)).toContain('spec.canaryTrafficPercent');
    expect(plan.changes.every((c) => c.path.startsWith('spec.canary'))).toBe(true);
  });

  it('set-canary-traffic refuses a split that is already in place', async () => {
    await expect(
      planFor('canary-new-revision-crashing', { namespace: 'default', name: 'sklearn-iris' }, 'set-canary-traffic', {
        canaryPercent: 10,
      }),
    ).rejects.toMatchObject({ code: 'REMEDIATION_NOTHING_TO_CHANGE' });
  });
});
