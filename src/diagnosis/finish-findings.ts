/**
 * Findings as a report carries them: root cause first (order-findings.ts), each with its next step
 * built from the evidence (findings/next-step.ts), a consequence tied to its cause and without a
 * step of its own (canary-cause.ts), every string redacted, each title one line (title-line.ts).
 */
import type { NextStepContext } from '../findings/next-step-context.js';
import { withNextStep } from '../findings/next-step.js';
import { orderFindings } from '../findings/order-findings.js';
import { redactFinding } from '../findings/redact-finding.js';
import type { Finding } from '../findings/types.js';
import { withCanaryCause } from './canary-cause.js';
import { titleLine, withoutRepeatNoise } from './title-line.js';

export function finishFindings(findings: Finding[], next: NextStepContext): Finding[] {
  const ordered = orderFindings(findings).map((f) => withNextStep(f, next));
  // a consequence is fixed by its cause's next step: it carries none of its own
  return withCanaryCause(ordered).map((f) => {
    const { next: _own, ...rest } = f;
    // redacted before the title is cut, so a cut never leaves part of a secret behind
    const redacted = redactFinding(f.consequenceOf ? rest : f);
    return {
      ...redacted,
      title: titleLine(redacted.title),
      evidence: redacted.evidence.map((e) => (e.text ? { ...e, text: withoutRepeatNoise(e.text) } : e)),
    };
  });
}
