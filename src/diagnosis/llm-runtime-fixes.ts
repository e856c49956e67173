/**
 * An LLM runtime's fix depends on what the container was started with, which the log line alone
 * does not say: a repository that needs remote code while the args already pass the flag means the
 * runtime drops it (the Hugging Face runtime's huggingface backend before KServe 0.14), so the fix
 * is the runtime's release, not the flag.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Finding } from '../findings/types.js';
import { fieldPathOf } from './field-path.js';
import type { DiagnosisContext } from './playbook.js';
import { editCommand } from '../findings/next-step-context.js';

const TRUST_FLAG = /^--trust[-_]remote[-_]code(?:=(?:true|True|1))?$/;

export function withLlmRuntimeFixes(
  ctx: DiagnosisContext,
  pod: V1Pod,
  container: string,
  findings: readonly Finding[],
): Finding[] {
  const spec = pod.spec?.containers?.find((c) => c.name === container);
  const argv = [...(spec?.command ?? []), ...(spec?.args ?? [])];
  const flag = argv.find((a) => TRUST_FLAG.test(a));
  return findings.map((f) => {
    if (f.code !== 'TRUST_REMOTE_CODE_REQUIRED' || !flag) return f;
    const runtimeVersion = fieldPathOf(ctx.target.isvc, f.component, 'runtimeVersion');
    return {
      ...f,
      title: `${f.title}, although the container is started with ${flag}: the runtime does not pass it on`,
      next: `${editCommand(ctx.target)}: set ${runtimeVersion} to a runtime release that passes ${flag} to transformers (the Hugging Face runtime's huggingface backend does from KServe 0.14)`,
    };
  });
}
