/** `/isvc diagnose NAME [-n NS]`: a root message "Diagnosing…" in the channel, the report in its thread (or joins the diagnosis already running). */
import type { TargetRef } from '../core/target-ref.js';
import { requestDiagnosis } from '../queue/request-diagnosis.js';
import { command } from './command.js';
import { oneTarget } from './resolve-target.js';

export const diagnose = command<TargetRef>({
  name: 'diagnose',
  cluster: 'queue',
  progress: 'own',
  usage:
    '`/isvc diagnose NAME [-n NAMESPACE] [--kind llmisvc|isvc] [--cluster NAME]` (or `NAMESPACE/NAME`) — why an InferenceService or LLMInferenceService is not ready',
  parse: (args, config) => {
    const target = oneTarget('diagnose', args.positionals, args.namespace, config);
    if ('problem' in target) return target;
    // neither -n nor NAMESPACE/NAME: a name only elsewhere is followed there (run-diagnosis.ts)
    const defaulted = args.namespace === undefined && !args.positionals[0]?.includes('/');
    return {
      ...target,
      ...(args.kind ? { kind: args.kind } : {}),
      ...(defaulted ? { namespaceDefaulted: true } : {}),
    };
  },
  async run(target, ctx) {
    const done = await requestDiagnosis(ctx.deps.diagnoses, {
      target,
      channel: ctx.channel,
      user: ctx.user,
      ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}),
      ...(ctx.requestId ? { requestId: ctx.requestId } : {}),
    });
    return done.kind;
  },
});
