/**
 * `/isvc mute NAME [DURATION] [-n NS]`: no automatic incident posts for one InferenceService, until
 * DURATION passes (30m, 2h, 1d; at most 30d) or `/isvc unmute`. The mute lives in Redis (MuteStore).
 */
import { parseDuration } from '../core/duration.js';
import { targetKey, type TargetRef } from '../core/target-ref.js';
import { withQueueDeadline } from '../queue/queue-errors.js';
import { command } from './command.js';
import { resolveTarget } from './resolve-target.js';

const MAX_MUTE_MS = 30 * 86_400_000;
export const MUTE_DEADLINE_MS = 1500;

export const mute = command<{ target: TargetRef; durationMs: number | null }>({
  name: 'mute',
  cluster: 'store',
  usage:
    '`/isvc mute NAME [DURATION] [-n NAMESPACE]` — no automatic incident posts for it (DURATION like 30m, 2h, 1d; none: until unmuted)',
  parse(args, config) {
    const [name, duration, ...extra] = args.positionals;
    if (!name) return { problem: 'mute needs the name of an InferenceService.' };
    if (extra.length > 0) return { problem: 'mute takes one InferenceService name and an optional duration like 2h.' };
    const target = resolveTarget(name, args.namespace, config);
    if ('problem' in target) return target;
    const ms = duration === undefined ? null : parseDuration(duration);
    if (duration !== undefined && (ms === null || ms <= 0 || ms > MAX_MUTE_MS))
      return { problem: `"${duration.slice(0, 40)}" is not a duration like 30m, 2h or 1d (at most 30d).` };
    return { target, durationMs: ms };
  },
  async run({ target, durationMs }, ctx) {
    const mutes = ctx.deps.mutes;
    if (!mutes) {
      await ctx.reply({ kind: 'disabled', feature: 'incidents', usage: [mute.usage] });
      return 'disabled';
    }
    await withQueueDeadline('mute', MUTE_DEADLINE_MS, () => mutes.mute(targetKey(target), ctx.user, durationMs));
    await ctx.reply({ kind: 'muted', key: targetKey(target), durationMs });
    return 'ok';
  },
});
