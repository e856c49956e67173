/** `/isvc help` (also `/isvc` alone): every command's usage, from the registry. */
import { command } from './command.js';

export const help = command<Record<string, never>>({
  name: 'help',
  aliases: ['-h', '--help'],
  usage: '`/isvc help` — this help',
  parse: () => ({}),
  async run(_input, ctx) {
    await ctx.reply({ kind: 'help', usage: ctx.usage });
    return 'ok';
  },
});
