/**
 * `@isvc-doctor diagnose NAME [-n NS]` in a channel or thread: the same commands as `/isvc`, answers
 * in that thread; `@isvc-doctor mute NAME [DURATION]` / `unmute NAME` as `/isvc mute`, answered
 * ephemerally to the one who asked.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { BotDeps } from '../../src/bot/bot-deps.js';
import { parseIsvcCommand, stripMentions } from '../../src/bot/parse-command.js';
import { runCommand } from '../../src/bot/run-command.js';
import type { SlackMessage } from '../../src/render/slack/index.js';
import { parseMuteCommand, runMuteCommand } from '../commands/mute-command.js';

export function appMention(deps: BotDeps) {
  return async ({ event }: SlackEventMiddlewareArgs<'app_mention'> & AllMiddlewareArgs): Promise<void> => {
    if (!event.user) return; // edited / bot messages carry no user
    const user = event.user;
    const text = stripMentions(event.text ?? '');
    const replyEphemeral = (m: SlackMessage) => deps.poster.ephemeral(event.channel, user, m, event.thread_ts);
    const mute = parseMuteCommand(text, deps.config);
    if (mute) {
      deps.afterAck(() => runMuteCommand(deps, mute, user, (m) => replyEphemeral(m).catch((e: unknown) => deps.logger.warn(`ephemeral reply failed: ${e instanceof Error ? e.message : String(e)}`))));
      return;
    }
    const parsed = parseIsvcCommand(text, deps.config);
    deps.afterAck(() =>
      runCommand(deps, parsed, {
        channel: event.channel,
        user,
        ...(event.thread_ts ? { threadTs: event.thread_ts } : {}),
        replyEphemeral,
      }),
    );
  };
}
