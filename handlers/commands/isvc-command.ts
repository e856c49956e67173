/** `/isvc …`: ack at once (before any Redis or cluster call), then run the command; its answers to the asker go to response_url. */
import type { AllMiddlewareArgs, RespondArguments, RespondFn, SlackCommandMiddlewareArgs } from '@slack/bolt';
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
          return respondTo(respond, {
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

/**
 * One answer on response_url. Bolt 5's `respond()` is a fetch: a non-2xx answer (an expired URL, a
 * rate limit) is thrown as a RespondError (its `statusCode`), a 2xx one resolves to the Response,
 * whose body is read here (a body left unread holds its connection) and whose `{ok: false, error}`
 * (what Slack answers a reply it refuses) is thrown too: the command's reply wrapper logs either.
 */
async function respondTo(respond: RespondFn, message: RespondArguments): Promise<void> {
  const res = await respond(message);
  const text = await res.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return; // "ok" as plain text, or nothing
  }
  if (typeof answer === 'object' && answer !== null && (answer as { ok?: unknown }).ok === false)
    throw new Error(`response_url: ${String((answer as { error?: unknown }).error ?? 'not ok').slice(0, 80)}`);
}
