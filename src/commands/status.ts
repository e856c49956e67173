/** `/isvc status [-n NS]`: the InferenceServices of a namespace, ready or not (a job posts the list). */
import { command } from './command.js';
import { defaultNamespace, namespaceProblem } from './resolve-target.js';

export const status = command<{ namespace: string }>({
  name: 'status',
  cluster: 'queue',
  usage: '`/isvc status [-n NAMESPACE] [--cluster NAME]` — the InferenceServices of a namespace, ready or not',
  parse(args, config) {
    if (args.positionals.length > 0) return { problem: `status takes no name (got "${args.positionals[0]!.slice(0, 40)}"); use -n NAMESPACE.` };
    const namespace = args.namespace ?? defaultNamespace(config);
    const bad = namespaceProblem(config, namespace);
    return bad ? { problem: bad } : { namespace };
  },
  async run({ namespace }, ctx) {
    await ctx.deps.queue.addStatus({
      kind: 'status',
      namespace,
      channel: ctx.channel,
      user: ctx.user,
      ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}),
      ...(ctx.requestId ? { requestId: ctx.requestId } : {}),
    });
    return 'queued';
  },
});
