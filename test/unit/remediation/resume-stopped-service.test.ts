/**
 * resume-stopped-service: offered on ISVC_STOPPED when kubectl set the stop annotation (the report's
 * diff is the plan's: the annotation "true" → "false", dry run, no write), not when Argo CD owns it
 * (it would set it back); the annotation diff helper; the plan refuses a service that is not stopped.
 */
import { diagnosedScenario, patchDryRunsSince } from './diagnosed-scenario.js';
import { annotationChanges, diffLines } from '../../../src/changes/field-changes.js';
import { ACTIONS } from '../../../src/remediation/actions/index.js';

const STOP = 'serving.kserve.io/stop';
async function scenario(name: string, target: { namespace: string; name: string }) {
  const { sim, report, ctx } = await diagnosedScenario(name, target);
  return { sim, stopped: report.findings.find((f) => f.code === 'ISVC_STOPPED'), ctx };
}

describe('annotationChanges', () => {
  it('lists the named annotations that differ, by key', () => {
    const before = { metadata: { annotations: { [STOP]: 'true', other: 'a' } } };
    const after = { metadata: { annotations: { [STOP]: 'false', other: 'b' } } };
    expect(annotationChanges(before, after, [STOP])).toEqual([
      { path: `metadata.annotations.${STOP}`, before: 'true', after: 'false' },
    ]);
    expect(annotationChanges({ metadata: {} }, after, [STOP])).toEqual([
      { path: `metadata.annotations.${STOP}`, before: undefined, after: 'false' },
    ]);
    expect(annotationChanges(before, before, [STOP])).toEqual([]);
  });
});

describe('resume-stopped-service', () => {
  it("stopped with kubectl annotate: the report offers the plan's exact change, planned with a dry run and no write", async () => {
    const { sim, stopped, ctx } = await scenario('stopped-standard-gpu-released-by-kubectl', {
      namespace: 'gpu-team',
      name: 'qwen25-7b',
    });
    expect(stopped?.remediation).toMatchObject({ action: 'resume-stopped-service', needsApproval: true });
    expect(stopped!.remediation!.summary).toContain('nvidia.com/gpu 1');
    const action = ACTIONS['resume-stopped-service'];
    const before = sim.requests.length;
    const plan = await action.plan(ctx, action.params.parse(stopped!.remediation!.params));
    expect(plan.changes).toEqual([{ path: `metadata.annotations.${STOP}`, before: 'true', after: 'false' }]);
    expect(stopped!.remediation!.diff).toEqual(diffLines(plan.changes));
    expect(plan.write).toMatchObject({
      kind: 'patch',
      patchType: 'merge',
      patch: { metadata: { annotations: { [STOP]: 'false' }, resourceVersion: plan.resourceVersion } },
    });
    expect(plan.risk).toBe('medium');
    expect(plan.riskNote).toContain('kubectl-annotate');
    expect(patchDryRunsSince(sim, before)).toEqual(['All']);
    expect(action.label(plan, plan.params, 'ISVC_STOPPED')).toBe('Resume (stop: "false")');
  });

  it('stopped by Argo CD (it owns the annotation): no button, the next step names where to change it', async () => {
    const { stopped } = await scenario('stopped-knative-set-by-argocd', { namespace: 'fraud', name: 'xgb-fraud' });
    expect(stopped).toBeDefined();
    expect(stopped!.remediation).toBeNull();
    expect(stopped!.next).toContain('argocd-controller');
  });

  it('the plan refuses a service that is no longer stopped', async () => {
    const { sim, ctx } = await scenario('stopped-standard-gpu-released-by-kubectl', {
      namespace: 'gpu-team',
      name: 'qwen25-7b',
    });
    const o = sim.store.get('serving.kserve.io/v1beta1', 'InferenceService', 'gpu-team', 'qwen25-7b')!;
    (o.metadata.annotations as Record<string, string>)[STOP] = 'false';
    sim.store.upsert(o);
    const action = ACTIONS['resume-stopped-service'];
    await expect(action.plan(ctx, {})).rejects.toMatchObject({ code: 'REMEDIATION_NOTHING_TO_CHANGE' });
  });
});
