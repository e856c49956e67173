/**
 * One finding per code and scope: evidence from several playbooks about the same thing is merged
 * (a finding without a revision joins the one of the same code and component that has one, e.g.
 * KServe's modelStatus and the model server's own log line).
 */
import type { Evidence, Finding } from '../findings/types.js';

export function mergeDuplicates(findings: Finding[]): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const i = out.findIndex((g) => g.code === f.code && sameThing(g, f));
    const same = out[i];
    if (same) out[i] = merge(same, f);
    else out.push(f);
  }
  return out;
}

function sameThing(a: Finding, b: Finding): boolean {
  if ((a.component ?? '') !== (b.component ?? '') && a.component && b.component) return false;
  if (a.revision && b.revision) return a.revision === b.revision;
  if (!a.revision && !b.revision) {
    if (a.subject === b.subject) return (a.component ?? '') === (b.component ?? '');
    // KServe's report on the InferenceService and a pod's own line about the same component
    return Boolean(
      a.component &&
        a.component === b.component &&
        [a.subject, b.subject].some((s) => s.startsWith('InferenceService ')),
    );
  }
  return Boolean(a.component && b.component);
}

function merge(a: Finding, b: Finding): Finding {
  const [base, other] = b.revision && !a.revision ? [b, a] : [a, b];
  const explains = [...new Set([...(base.explains ?? []), ...(other.explains ?? [])])];
  return {
    ...base,
    evidence: [...base.evidence, ...other.evidence.filter((e) => !base.evidence.some((b) => sameEvidence(b, e)))],
    remediation: base.remediation ?? other.remediation,
    // the step built from a pod's own lines (the model server's, the kubelet's) before the status's copy of them
    ...(nextOf(base, other) ? { next: nextOf(base, other) } : {}),
    ...(explains.length ? { explains } : {}),
  };
}

function nextOf(a: Finding, b: Finding): string | undefined {
  const fromPod = [a, b].find((f) => f.next && f.subject.startsWith('Pod '));
  return fromPod?.next ?? a.next ?? b.next;
}

/** The same evidence, or the same note read from two places (a signature's note on an event and on a log line). */
function sameEvidence(a: Evidence, b: Evidence): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || (a.kind === 'note' && b.kind === 'note' && a.text === b.text);
}
