/** `/isvc clusters`: the clusters this bot serves, each with its agents' last heartbeat and version (multi-cluster installs). */
import { command } from './command.js';

export const clusters = command<null>({
  name: 'clusters',
  usage:
    "`/isvc clusters` — the clusters this bot serves, their agents' last heartbeat and version (`--cluster NAME` on a command picks one)",
  parse(args) {
    if (args.positionals.length > 0)
      return { problem: `clusters takes no arguments (got "${args.positionals[0]!.slice(0, 40)}").` };
    return null;
  },
  async run(_input, ctx) {
    await ctx.reply({ kind: 'clusters', clusters: ctx.deps.clusters ? await ctx.deps.clusters.list() : null });
    return 'ok';
  },
});
