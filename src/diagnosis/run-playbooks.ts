/**
 * Runs playbooks against one diagnosis context, all at once: each finding carries the playbook that
 * made it; a playbook that fails is reported as a check that could not run (a Forbidden read is not:
 * the reader reports denied reads once, for the whole diagnosis) while the others' results still show.
 */
import { errorMessage } from '../core/error-message.js';
import { finding } from '../findings/finding.js';
import type { Finding } from '../findings/types.js';
import { ForbiddenError } from '../kube/errors.js';
import type { DiagnosisContext, Playbook } from './playbook.js';

export async function runPlaybooks(playbooks: readonly Playbook[], ctx: DiagnosisContext): Promise<Finding[]> {
  const results = await Promise.allSettled(playbooks.map((p) => p.run(ctx)));
  return playbooks.flatMap((playbook, i) => {
    const result = results[i] as PromiseSettledResult<Finding[]>;
    if (result.status === 'fulfilled') return result.value.map((f) => ({ ...f, playbook: playbook.id }));
    return result.reason instanceof ForbiddenError ? [] : [checkFailed(playbook, result.reason, ctx)];
  });
}

function checkFailed(playbook: Playbook, error: unknown, ctx: DiagnosisContext): Finding {
  const message = errorMessage(error, 2000);
  const { namespace, name, kind } = ctx.target;
  return finding('CLUSTER_UNREACHABLE', {
    subject: `Check ${playbook.id} for ${kind === 'llmisvc' ? 'LLMInferenceService' : 'InferenceService'} ${namespace}/${name}`,
    title: `Check "${playbook.title}" could not run: ${message}`,
    evidence: [{ kind: 'note', ref: `playbook ${playbook.id}`, text: message }],
  });
}
