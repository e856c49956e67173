/**
 * LLM_WORKLOAD_NOT_READY's next step comes from its catalog entry, built from the evidence the
 * finding carries: the Deployment short of replicas and a pod of that Deployment (not another
 * workload's), else the Deployment itself; without either, the labelled fallback for the service.
 */
import { describe, expect, it } from '@jest/globals';
import { llmNextStepContext } from '../../../src/diagnosis/run-llm-diagnosis.js';
import { finding } from '../../../src/findings/finding.js';
import { withNextStep } from '../../../src/findings/next-step.js';
import { FALLBACK_LABEL } from '../../../src/findings/next-step-quality.js';
import type { Evidence } from '../../../src/findings/types.js';

const ctx = llmNextStepContext({ namespace: 'team', name: 'qwen' }, 'knative-serving');
const workload = (evidence: Evidence[]) =>
  withNextStep(
    finding('LLM_WORKLOAD_NOT_READY', {
      subject: 'LLMInferenceService team/qwen',
      title: 'Workload qwen-kserve has 0 of 1 replicas available',
      evidence,
    }),
    ctx,
  ).next ?? '';

describe('LLM_WORKLOAD_NOT_READY next step', () => {
  it("names the Deployment and reads that Deployment's own pod", () => {
    const next = workload([
      { kind: 'field', ref: 'Deployment team/qwen-kserve', text: 'replicas 1, availableReplicas 0' },
      { kind: 'field', ref: 'Pod team/qwen-epp-5c6d7-abcde', text: 'Running' },
      { kind: 'field', ref: 'Pod team/qwen-kserve-7d9f8-x2x4q', text: 'Running: main: running, not ready' },
    ]);
    expect(next.startsWith(`${FALLBACK_LABEL} no pod of qwen-kserve`)).toBe(true);
    expect(next).toContain('kubectl logs -n team qwen-kserve-7d9f8-x2x4q -c main');
  });

  it('reads the Deployment when no pod of it is in the evidence', () => {
    const next = workload([
      { kind: 'field', ref: 'Deployment team/qwen-kserve', text: 'replicas 1, availableReplicas 0' },
    ]);
    expect(next).toContain('kubectl logs -n team deploy/qwen-kserve -c main');
  });

  it('falls back to the service when the workload was not read', () => {
    expect(workload([])).toContain('kubectl get pods -n team -l app.kubernetes.io/name=qwen');
  });
});
