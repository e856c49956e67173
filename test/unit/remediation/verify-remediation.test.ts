/**
 * verifyRemediation with a plan that names the service it is verified on (`Plan.verifies`: traffic
 * taken off a failing member of a routing group is checked on the member that takes it): that
 * service is re-diagnosed, not the proposal's target, and it counts as fixed only when Ready with no
 * root cause (Ready while still sending traffic to the failing member is not fixed).
 */
import { describe, expect, it } from '@jest/globals';
import type { TargetRef } from '../../../src/core/target-ref.js';
import type { Report } from '../../../src/findings/types.js';
import type { Proposal } from '../../../src/remediation/proposal.js';
import type { RemediationDeps } from '../../../src/remediation/remediation-deps.js';
import { verifyRemediation } from '../../../src/remediation/verify-remediation.js';

const CANARY: TargetRef = { namespace: 'llm', name: 'chat-v2' };
const STABLE: TargetRef = { namespace: 'llm', name: 'chat-v1', kind: 'llmisvc' };

const report = (ready: boolean, rootCause: string | null) => ({ ready, rootCause, findings: [] }) as unknown as Report;

function run(answers: Report[]) {
  const asked: TargetRef[] = [];
  let t = 0;
  const deps = {
    writer: { get: async () => null },
    config: { verifyTimeoutMs: 3, verifyPollMs: 0 },
    // each read of the clock moves it on: the deadline comes after a few diagnoses, whatever the machine's speed
    now: () => t++,
    diagnose: async (target: TargetRef) => {
      asked.push(target);
      return answers[Math.min(asked.length - 1, answers.length - 1)]!;
    },
  } as unknown as RemediationDeps;
  const proposal = {
    target: CANARY,
    findingCode: 'LLM_GROUP_ROUTES_UNREADY_MEMBER',
    plan: { target: { kind: 'LLMInferenceService', namespace: 'llm', name: 'chat-v2' }, verifies: STABLE },
  } as unknown as Proposal;
  return { asked, verify: () => verifyRemediation(deps, proposal) };
}

describe('verifyRemediation with Plan.verifies', () => {
  it('re-diagnoses the member that takes the traffic, fixed once it is Ready with nothing found', async () => {
    const { asked, verify } = run([report(true, 'LLM_GROUP_ROUTES_UNREADY_MEMBER'), report(true, null)]);
    const { outcome } = await verify();
    expect(outcome.kind).toBe('fixed');
    expect(asked).toEqual([STABLE, STABLE]);
  });

  it('Ready but still routing to the failing member is the same root cause, not fixed', async () => {
    const { verify } = run([report(true, 'LLM_GROUP_ROUTES_UNREADY_MEMBER')]);
    expect((await verify()).outcome.kind).toBe('same');
  });
});
