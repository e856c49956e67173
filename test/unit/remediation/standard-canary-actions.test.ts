/**
 * The Standard-mode canary of KServe 0.20 (spec.canary[]; test/scenarios/canary-standard-*), diagnosed through the
 * simulator and client-node: the failing canary's finding names its Deployment, its pods' cause and
 * its spec entry, and offers the rollback its plan makes (the entry removed, dry run, no write);
 * promote makes the canary's predictor (with its name) the stable one and drops the entry; the
 * split sets the entry's trafficPercent; the rollout view reads the route's rule from canaryStatuses.
 */
import { diagnosedScenario, patchDryRunsSince } from './diagnosed-scenario.js';
import { diffLines } from '../../../src/changes/field-changes.js';
import { ACTIONS } from '../../../src/remediation/actions/index.js';
import { rolloutView } from '../../../src/remediation/rollout-view.js';
import type { KubeObject } from '../../../src/kube/schemas.js';
import type { Plan } from '../../../src/remediation/types.js';

interface Entry {
  trafficPercent: number;
  predictor: { name: string; minReplicas?: number; model: { storageUri: string } };
}
interface Spec {
  canary?: Entry[];
  predictor: Entry['predictor'];
}
const patchSpec = (plan: Plan) =>
  (plan.write as { patch: { spec: Partial<Spec> & { canary?: Entry[] | null } } }).patch.spec;

const target = { namespace: 'kserve-ci-e2e-test', name: 'isvc-canary-create' };
const FAILING = 'canary-standard-v2-model-uri-not-found-kserve-0-20';
const HEALTHY = 'canary-standard-split-healthy-kserve-0-20';
const live = (sim: Awaited<ReturnType<typeof diagnosedScenario>>['sim']) =>
  sim.store.get('serving.kserve.io/v1beta1', 'InferenceService', target.namespace, target.name) as KubeObject & {
    spec: Spec;
  };

describe('Standard-mode canary: diagnosis', () => {
  it("a not-ready canary Deployment is CANARY_UNHEALTHY with its pod's cause, the route's split and its spec entry", async () => {
    const { report } = await diagnosedScenario(FAILING, target);
    const root = report.findings[0]!;
    expect(root.code).toBe('CANARY_UNHEALTHY');
    expect(root.subject).toBe('Deployment kserve-ci-e2e-test/isvc-canary-create-v2-predictor');
    const texts = root.evidence.map((e) => e.text ?? '');
    expect(texts).toContain('CanaryPredictorReady=False (CanariesNotReady)');
    expect(texts.some((t) => t.startsWith('split: 100% to isvc-canary-create-predictor, 0% to'))).toBe(true);
    expect(
      texts.some((t) => /canary's own cause: isvc-canary-create-v2-predictor-\S+: storage-initializer/.test(t)),
    ).toBe(true);
    // the canary's storage failure is its own root cause, and its fix names the canary's entry, not the stable's
    expect(texts.some((t) => t.includes('STORAGE_URI_NOT_FOUND'))).toBe(true);
    expect(root.next).toContain('remove spec.canary[0] (predictor.name v2)');
    expect(root.next).toContain('spec.canary[0].predictor.model.storageUri');
    expect(root.next).not.toContain('spec.predictor.model.storageUri');
    // the canary pod's own finding reads the canary's values (its entry over the stable predictor)
    const storage = report.findings.find((f) => f.code === 'STORAGE_URI_NOT_FOUND')!;
    expect(storage.revision).toBe('isvc-canary-create-v2-predictor');
    expect(storage.title).toContain('gs://kfserving-examples/models/sklearn/1.3/mixedtyp');
    const split = report.findings.find((f) => f.code === 'TRAFFIC_SPLIT')!;
    expect(split.title).toContain('is asked, not applied');
  });

  it("a stopped service's canary (CanaryPredictorReady False, Stopped) is not a failing canary", async () => {
    const { report } = await diagnosedScenario(FAILING, target, (isvc) => {
      const conditions = (isvc.status as { conditions: Array<{ type: string; reason?: string }> }).conditions;
      const rolled = conditions.find((c) => c.type === 'CanaryPredictorReady');
      if (rolled) rolled.reason = 'Stopped';
    });
    expect(report.findings.some((f) => f.code === 'CANARY_UNHEALTHY')).toBe(false);
  });

  it('a ready canary is a healthy split with the HTTPRoute weights', async () => {
    const { report } = await diagnosedScenario(HEALTHY, target);
    expect(report.findings.some((f) => f.code === 'CANARY_UNHEALTHY')).toBe(false);
    const split = report.findings.find((f) => f.code === 'TRAFFIC_SPLIT')!;
    expect(split.title).toBe(
      'Traffic is split: isvc-canary-create-predictor (stable) 80%, isvc-canary-create-v2-predictor (canary v2) 20%',
    );
    expect(split.evidence.map((e) => e.ref)).toContain('HTTPRoute kserve-ci-e2e-test/isvc-canary-create-predictor');
  });
});

describe('Standard-mode canary: actions', () => {
  it("rollback: the report offers the plan's change, the entry removed, planned with a dry run and no write", async () => {
    const { sim, report, ctx } = await diagnosedScenario(FAILING, target);
    const root = report.findings[0]!;
    expect(root.remediation).toMatchObject({ action: 'rollback-canary', needsApproval: true });
    expect(root.remediation!.diff![0]).toContain('spec.canary[0] (predictor.name v2, trafficPercent 20)');
    const action = ACTIONS['rollback-canary'];
    const before = sim.requests.length;
    const plan = await action.plan(ctx, action.params.parse(root.remediation!.params));
    expect(plan.write).toMatchObject({ kind: 'patch', patch: { spec: { canary: null } } });
    expect(plan.changes.map((c) => c.path).every((p) => p.startsWith('spec.canary'))).toBe(true);
    expect(diffLines(plan.changes).length).toBeGreaterThan(0);
    expect(action.label(plan, plan.params, 'CANARY_UNHEALTHY')).toBe('Roll back to isvc-canary-create-predictor');
    expect(patchDryRunsSince(sim, before)).toEqual(['All']);
    expect(live(sim).spec.canary).toHaveLength(1);
    // applied once: the entry is gone; a second apply of the same proposal recognises its own write
    expect(await action.apply(ctx, plan, 'prop-1')).toBe('applied');
    expect(live(sim).spec.canary).toBeUndefined();
    expect(await action.apply(ctx, plan, 'prop-1')).toBe('already-applied');
  });

  it('rollback keeps the other canaries and names the one it removes', async () => {
    const { sim, ctx } = await diagnosedScenario(FAILING, target, (isvc) => {
      (isvc.spec as unknown as Spec).canary?.push({
        trafficPercent: 10,
        predictor: { name: 'v3', model: { storageUri: 'gs://b/v3' } },
      });
    });
    const action = ACTIONS['rollback-canary'];
    const plan = await action.plan(ctx, { canary: 'isvc-canary-create-v2-predictor' });
    expect(patchSpec(plan).canary).toEqual([live(sim).spec.canary?.[1]]);
    expect(plan.summary).toContain('remove canary v2 (spec.canary[0], trafficPercent 20)');
  });

  it("promote: spec.predictor takes the canary's predictor and name (no restart), the entry leaves spec.canary", async () => {
    const { sim, ctx } = await diagnosedScenario(HEALTHY, target);
    const action = ACTIONS['promote-canary'];
    const plan = await action.plan(ctx, {});
    const canaryPredictor = live(sim).spec.canary?.[0]?.predictor;
    expect(patchSpec(plan)).toEqual({ predictor: canaryPredictor, canary: null });
    expect(plan.risk).toBe('high');
    expect(await action.apply(ctx, plan, 'prop-2')).toBe('applied');
    const after = live(sim).spec;
    expect(after.canary).toBeUndefined();
    expect(after.predictor.name).toBe('v2');
    expect(after.predictor.model.storageUri).toBe('gs://kfserving-examples/models/sklearn/1.3/mixedtype');
    // the stable's own scaling stays (the canary's replicas are fixed, not the service's)
    expect(after.predictor.minReplicas).toBe(2);
  });

  it('promote of a failing canary says its state before the change', async () => {
    const { ctx } = await diagnosedScenario(FAILING, target);
    const plan = await ACTIONS['promote-canary'].plan(ctx, {});
    expect(plan.targetState).toMatch(
      /^canary isvc-canary-create-v2-predictor: 0 of 1 pod ready, Init:CrashLoopBackOff/,
    );
  });

  it("set split: the entry's trafficPercent, the other fields as they are; a split already in place is refused", async () => {
    const { sim, ctx } = await diagnosedScenario(HEALTHY, target);
    const action = ACTIONS['set-canary-traffic'];
    const plan = await action.plan(ctx, { canaryPercent: 50 });
    // the list is shown whole before / after (a merge patch replaces it whole): only trafficPercent differs
    const entry = live(sim).spec.canary?.[0];
    expect(plan.changes).toEqual([{ path: 'spec.canary', before: [entry], after: [{ ...entry, trafficPercent: 50 }] }]);
    expect(plan.summary).toContain('spec.canary[0].trafficPercent (canary v2) to 50');
    await expect(action.plan(ctx, { canaryPercent: 20 })).rejects.toMatchObject({
      code: 'REMEDIATION_NOTHING_TO_CHANGE',
    });
  });

  it('the rollout view: Deployments as rows, the status percent only for a ready canary', async () => {
    const failing = rolloutView(live((await diagnosedScenario(FAILING, target)).sim));
    expect(failing.splitField).toBe('spec.canary[0].trafficPercent (canary v2)');
    expect(failing.revisions).toEqual([
      expect.objectContaining({
        name: 'isvc-canary-create-predictor',
        role: 'stable',
        specPercent: 80,
        statusPercent: 100,
      }),
      expect.objectContaining({
        name: 'isvc-canary-create-v2-predictor',
        role: 'canary',
        specPercent: 20,
        statusPercent: 0,
        ready: false,
        cause: 'CanariesNotReady',
      }),
    ]);
    expect(failing.lag).toContain("KServe's HTTPRoute leaves it out");
    const healthy = rolloutView(live((await diagnosedScenario(HEALTHY, target)).sim));
    expect(healthy.revisions.map((r) => [r.statusPercent, r.ready])).toEqual([
      [80, true],
      [20, true],
    ]);
    expect(healthy.lag).toBeNull();
  });
});
