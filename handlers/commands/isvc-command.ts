/** `/isvc …`: ack at once (before any Redis or cluster call), then run the command; its answers to the asker go to response_url. */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { runCommand } from '../../src/commands/index.js';
import { renderCommandReply } from '../../src/notify/slack-command-replies.js';
import { requestIdOf, type HandlerDeps } from '../handler-deps.js';

export function isvcCommand(deps: HandlerDeps) {
  return async ({ command, ack, respond, context }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const requestId = requestIdOf(context);
    await deps.afterAck(() =>
      runCommand(command.text ?? '', {
        deps: deps.commands,
        channel: command.channel_id,
        user: command.user_id,
        ...(requestId ? { requestId } : {}),
        reply: (r) => {
          const m = renderCommandReply(r);
          return respond({
            response_type: 'ephemeral',
            replace_original: false,
            text: m.text,
            blocks: m.blocks as never,
          });
        },
      }),
    );
  };
}
