/**
 * The rollout in one message: per-revision rows (role, spec % vs status %, ready or why not), the
 * lag between spec and status said in words, Promote / Roll back / Set split; and after a rollback
 * the verification does not call an unchanged root cause "new" (rollout proposals have no finding).
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../src/kube/schemas.js';
import type { Proposal } from '../../../src/remediation/proposal.js';
import { rolloutView } from '../../../src/remediation/rollout-view.js';
import { renderVerification } from '../../../src/render/slack/render-proposal.js';
import { renderRolloutView } from '../../../src/render/slack/render-rollout.js';
import { expectGolden } from './golden.js';

function isvcOf(scenario: string): KubeObject {
  const docs = parseAllDocuments(readFileSync(`test/scenarios/${scenario}/objects.yaml`, 'utf8')).map((d) => d.toJS());
  const all = docs.flatMap((d: any) => (d?.items ? d.items : [d]));
  return all.find((o: any) => o?.kind === 'InferenceService') as KubeObject;
}

describe('the rollout message', () => {
  it('v1beta1 with a crashing canary: names it, its cause, and why status routes 0% to it', () => {
    const view = rolloutView(isvcOf('canary-new-revision-crashing'));
    expect(view.revisions.map((r) => [r.role, r.name, r.specPercent, r.statusPercent, r.ready])).toEqual([
      ['stable', 'sklearn-iris-predictor-00001', 90, 100, true],
      ['canary', 'sklearn-iris-predictor-00002', 10, 0, false],
    ]);
    expect(view.revisions[1]!.cause).toContain('failed');
    expect(view.lag).toContain('the canary is not ready, so Knative keeps its share on the last ready revision');
    const m = renderRolloutView({ namespace: 'default', name: 'sklearn-iris' }, view, 'U0ALICE');
    const text = JSON.stringify(m.blocks);
    expect(text).toContain('canaryTrafficPercent 10: 90% stable / 10% canary');
    expect(text).not.toContain('10 →');
    expect(text).toContain('0% (spec 10%) · ❌ not ready');
    expectGolden('rollout-v1beta1-crashing-canary', m);
  });

  it('v1alpha2 healthy canary: both ready, spec and status agree', () => {
    const view = rolloutView(isvcOf('canary-split-healthy'));
    expect(view.revisions.map((r) => [r.role, r.specPercent, r.statusPercent, r.ready])).toEqual([
      ['stable', 80, 80, true],
      ['canary', 20, 20, true],
    ]);
    expect(view.lag).toBeNull();
    expectGolden(
      'rollout-v1alpha2-healthy',
      renderRolloutView({ namespace: 'default', name: 'sklearn-iris' }, view, 'U0ALICE'),
    );
  });
});

it('after a rollback, an unchanged root cause is not called new', () => {
  const p = {
    action: 'rollback-canary',
    findingCode: null,
    target: { namespace: 'default', name: 'sklearn-iris' },
    plan: { target: { kind: 'InferenceService', namespace: 'default', name: 'sklearn-iris' } },
  } as unknown as Proposal;
  const report = { rootCause: 'CANARY_UNHEALTHY', findings: [{ title: 'Canary revision fails' }] } as never;
  const m = renderVerification(p, { kind: 'new-root-cause', report } as never, 30);
  expect(m.text).not.toContain('new root cause');
  expect(m.text).toContain('root cause CANARY_UNHEALTHY');
});

it('a change verified on another service names that one, and a Ready service that still has its cause is not "not ready"', () => {
  const p = {
    action: 'set-llm-group-weight',
    findingCode: 'LLM_GROUP_ROUTES_UNREADY_MEMBER',
    target: { namespace: 'llm', name: 'chat-v2' },
    plan: {
      target: { kind: 'LLMInferenceService', namespace: 'llm', name: 'chat-v2' },
      verifies: { namespace: 'llm', name: 'chat-v1', kind: 'llmisvc' },
    },
  } as unknown as Proposal;
  const fixed = renderVerification(p, { kind: 'fixed', report: { ready: true, rootCause: null } } as never, 12);
  expect(fixed.text).toContain(
    'Verified: llm/chat-v1 is Ready with nothing wrong after set-llm-group-weight on chat-v2',
  );
  const same = renderVerification(
    p,
    { kind: 'same', report: { ready: true, rootCause: 'LLM_GROUP_ROUTES_UNREADY_MEMBER' } } as never,
    30,
  );
  expect(same.text).toContain('llm/chat-v1 is Ready, but root cause still LLM_GROUP_ROUTES_UNREADY_MEMBER');
  expect(same.text).not.toContain('not ready');
});
