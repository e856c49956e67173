/**
 * set-llm-group-weight: offered on LLM_GROUP_ROUTES_UNREADY_MEMBER (a routing group member not Ready
 * that keeps its share); the report's diff is the plan's (spec.router.route.weight 1 → 0 on the
 * member, dry run, no write), the plan is verified on the member that takes the share, and it
 * refuses a member that left the group or already has the weight. Applied, the simulator holds the
 * new weight and the proposal's annotation.
 */
import { diagnosedScenario, patchDryRunsSince } from './diagnosed-scenario.js';
import { diffLines } from '../../../src/changes/field-changes.js';
import { ACTIONS } from '../../../src/remediation/actions/index.js';

const SCENARIO = 'llm-group-canary-one-replica-crashing-still-weighted-kserve-0-20';
const TARGET = { namespace: 'llm', name: 'qwen3-coder-v2' };
const V1A2 = 'serving.kserve.io/v1alpha2';

async function offered() {
  const { sim, report, ctx } = await diagnosedScenario(SCENARIO, TARGET);
  const f = report.findings.find((x) => x.code === 'LLM_GROUP_ROUTES_UNREADY_MEMBER');
  return { sim, f, ctx };
}

describe('set-llm-group-weight', () => {
  it("the report offers the plan's exact change on the member, planned with a dry run and verified on the member that keeps the traffic", async () => {
    const { sim, f, ctx } = await offered();
    expect(f?.remediation).toMatchObject({ action: 'set-llm-group-weight', needsApproval: true });
    const action = ACTIONS['set-llm-group-weight'];
    const before = sim.requests.length;
    const plan = await action.plan(ctx, action.params.parse(f!.remediation!.params));
    expect(plan.target).toMatchObject({ apiVersion: V1A2, kind: 'LLMInferenceService', name: 'qwen3-coder-v2' });
    expect(plan.changes).toEqual([{ path: 'spec.router.route.weight', before: 1, after: 0 }]);
    expect(f!.remediation!.diff).toEqual(diffLines(plan.changes));
    expect(plan.verifies).toEqual({ namespace: 'llm', name: 'qwen3-coder-v1', kind: 'llmisvc' });
    expect(plan.targetState).toContain('MinimumReplicasUnavailable');
    expect(patchDryRunsSince(sim, before)).toEqual(['All']);
    expect(action.label(plan, plan.params, 'LLM_GROUP_ROUTES_UNREADY_MEMBER')).toBe(
      'Take qwen3-coder-v2 out of the split',
    );

    expect(await action.apply(ctx, plan, 'p-1')).toBe('applied');
    const live = sim.store.get(V1A2, 'LLMInferenceService', 'llm', 'qwen3-coder-v2')!;
    expect((live.spec as { router: { route: { weight: number } } }).router.route.weight).toBe(0);
    expect(live.metadata.annotations?.['isvc-doctor.io/remediation']).toBe('p-1');
  });

  it('refuses a member that has the weight already, or left the group', async () => {
    const { sim, f, ctx } = await offered();
    const action = ACTIONS['set-llm-group-weight'];
    const params = action.params.parse(f!.remediation!.params);
    const o = sim.store.get(V1A2, 'LLMInferenceService', 'llm', 'qwen3-coder-v2')!;
    const route = (o.spec as { router: { route: Record<string, unknown> } }).router.route;
    route.weight = 0;
    sim.store.upsert(o);
    await expect(action.plan(ctx, params)).rejects.toMatchObject({ code: 'REMEDIATION_NOTHING_TO_CHANGE' });
    route.weight = 1;
    route.group = 'other';
    sim.store.upsert(o);
    await expect(action.plan(ctx, params)).rejects.toMatchObject({ code: 'REMEDIATION_NOT_APPLICABLE' });
  });
});
