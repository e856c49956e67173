/** `/isvc rollout NAME [-n NS] [promote|rollback|90/10]`: the canary split, and proposals an approver applies. */
import type { TargetRef } from '../core/target-ref.js';
import { parseRolloutOp, type RolloutOp } from '../remediation/rollout-op.js';
import { runRollout } from '../remediation/run-rollout.js';
import { command } from './command.js';
import { oneTarget } from './resolve-target.js';

export const rollout = command<{ target: TargetRef; op: RolloutOp | null }>({
  name: 'rollout',
  cluster: 'forward',
  usage:
    '`/isvc rollout NAME [-n NAMESPACE] [promote|rollback|90/10]` — show the canary split and propose a change (approvers apply it)',
  parse(args, config) {
    const positionals = [...args.positionals];
    let op: RolloutOp | null = null;
    if (positionals.length === 2) {
      const parsed = parseRolloutOp(positionals.pop()!);
      if (typeof parsed === 'string') return { problem: parsed };
      op = parsed;
    }
    const target = oneTarget('rollout', positionals, args.namespace, config);
    return 'problem' in target ? target : { target, op };
  },
  async run({ target, op }, ctx) {
    if (!ctx.deps.remediation) {
      await ctx.reply({ kind: 'disabled', feature: 'remediations', usage: [rollout.usage] });
      return 'disabled';
    }
    await runRollout(ctx.deps.remediation, {
      target,
      op,
      channel: ctx.channel,
      user: ctx.user,
      ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}),
      ...(op && ctx.clickedTs ? { viewTs: ctx.clickedTs } : {}),
    });
    return 'ok';
  },
});
