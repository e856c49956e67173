/** `/isvc unmute NAME [-n NS]`: automatic incident posts for one InferenceService again. */
import { targetKey, type TargetRef } from '../core/target-ref.js';
import { withQueueDeadline } from '../queue/queue-errors.js';
import { command } from './command.js';
import { MUTE_DEADLINE_MS } from './mute.js';
import { oneTarget } from './resolve-target.js';

export const unmute = command<TargetRef>({
  name: 'unmute',
  cluster: 'store',
  usage: '`/isvc unmute NAME [-n NAMESPACE]` — automatic incident posts for it again',
  parse: (args, config) => oneTarget('unmute', args.positionals, args.namespace, config),
  async run(target, ctx) {
    const mutes = ctx.deps.mutes;
    if (!mutes) {
      await ctx.reply({ kind: 'disabled', feature: 'incidents', usage: [unmute.usage] });
      return 'disabled';
    }
    const wasMuted = await withQueueDeadline('unmute', MUTE_DEADLINE_MS, () => mutes.unmute(targetKey(target)));
    await ctx.reply({ kind: 'unmuted', key: targetKey(target), wasMuted });
    return 'ok';
  },
});
