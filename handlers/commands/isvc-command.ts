/** `/isvc …`: ack at once (before any Redis or cluster call), then parse, and queue or answer. */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { BotDeps } from '../../src/bot/bot-deps.js';
import { parseIsvcCommand } from '../../src/bot/parse-command.js';
import { runCommand } from '../../src/bot/run-command.js';
import { parseMuteCommand, runMuteCommand } from './mute-command.js';

export function isvcCommand(deps: BotDeps) {
  return async ({ command, ack, respond }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const reply = (m: { text: string; blocks: unknown[] }) => respond({ response_type: 'ephemeral', replace_original: false, text: m.text, blocks: m.blocks as never });
    const mute = parseMuteCommand(command.text ?? '', deps.config);
    if (mute) {
      deps.afterAck(() => runMuteCommand(deps, mute, command.user_id, (m) => reply(m).catch((e: unknown) => deps.logger.warn(`ephemeral reply failed: ${e instanceof Error ? e.message : String(e)}`))));
      return;
    }
    const parsed = parseIsvcCommand(command.text ?? '', deps.config);
    deps.afterAck(() =>
      runCommand(deps, parsed, {
        channel: command.channel_id,
        user: command.user_id,
        replyEphemeral: (m) => respond({ response_type: 'ephemeral', replace_original: false, text: m.text, blocks: m.blocks as never }),
      }),
    );
  };
}
