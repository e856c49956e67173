/**
 * `/isvc status [-n NS | -A]`: the InferenceServices of a namespace, or (without `-n`, or with `-A`)
 * of every namespace the bot may read, ready or not (a job posts the list, saying what it read).
 */
import { command } from './command.js';
import { namespaceProblem } from './resolve-target.js';

/** `namespace` null: every namespace the bot may read (the configured ones, else the whole cluster). */
export const status = command<{ namespace: string | null }>({
  name: 'status',
  cluster: 'queue',
  usage:
    '`/isvc status [-n NAMESPACE | -A] [--cluster NAME]` — the InferenceServices of a namespace (default: every namespace the bot may read), ready or not',
  parse(args, config) {
    if (args.positionals.length > 0)
      return { problem: `status takes no name (got "${args.positionals[0]!.slice(0, 40)}"); use -n NAMESPACE or -A.` };
    if (args.allNamespaces && args.namespace !== undefined)
      return { problem: 'status takes -n NAMESPACE or -A, not both.' };
    if (args.namespace === undefined) return { namespace: null };
    const bad = namespaceProblem(config, args.namespace);
    return bad ? { problem: bad } : { namespace: args.namespace };
  },
  async run({ namespace }, ctx) {
    await ctx.deps.queue.add({
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
