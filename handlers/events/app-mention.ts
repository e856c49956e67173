/** `@isvc-doctor diagnose NAME [-n NS]` in a channel or thread: the same commands as `/isvc`, answers in that thread. */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { BotDeps } from '../../src/bot/bot-deps.js';
import { parseIsvcCommand, stripMentions } from '../../src/bot/parse-command.js';
import { runCommand } from '../../src/bot/run-command.js';

export function appMention(deps: BotDeps) {
  return async ({ event }: SlackEventMiddlewareArgs<'app_mention'> & AllMiddlewareArgs): Promise<void> => {
    if (!event.user) return; // edited / bot messages carry no user
    const user = event.user;
    const parsed = parseIsvcCommand(stripMentions(event.text ?? ''), deps.config);
    deps.afterAck(() =>
      runCommand(deps, parsed, {
        channel: event.channel,
        user,
        ...(event.thread_ts ? { threadTs: event.thread_ts } : {}),
        replyEphemeral: (m) => deps.poster.ephemeral(event.channel, user, m, event.thread_ts),
      }),
    );
  };
}
