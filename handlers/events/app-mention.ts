/**
 * `@isvc-doctor diagnose NAME [-n NS]` in a channel or thread: the same commands as `/isvc`, answered
 * in that thread; what only the asker should see goes to them ephemerally.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { runCommand } from '../../src/commands/index.js';
import { renderCommandReply } from '../../src/notify/slack-command-replies.js';
import { requestIdOf, type HandlerDeps } from '../handler-deps.js';

export function appMention(deps: HandlerDeps) {
  return async ({ event, context }: SlackEventMiddlewareArgs<'app_mention'> & AllMiddlewareArgs): Promise<void> => {
    if (!event.user) return; // edited / bot messages carry no user
    const user = event.user;
    const requestId = requestIdOf(context);
    await deps.afterAck(() =>
      runCommand(event.text ?? '', {
        deps: deps.commands,
        channel: event.channel,
        user,
        ...(event.thread_ts ? { threadTs: event.thread_ts } : {}),
        ...(requestId ? { requestId } : {}),
        reply: (r) => deps.poster.ephemeral(event.channel, user, renderCommandReply(r), event.thread_ts),
      }),
    );
  };
}
