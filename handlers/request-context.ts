/**
 * Runs first for every Slack request: gives it a request id (on Bolt's context, for the listeners to
 * put in the jobs they queue, and in the logging context, for every line logged while handling it)
 * and logs one line saying what arrived.
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { newRequestId, withRequestId, type Logger } from '../src/core/logger.js';
import { currentPostScope } from '../src/core/post-scope.js';

export function requestContext(logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async ({ body, context, next }) => {
    const b = body as {
      type?: string;
      command?: string;
      text?: string;
      event?: { type?: string };
      user_id?: string;
      user?: { id?: string };
      channel_id?: string;
      channel?: { id?: string };
    };
    // a request the front door runs (again, after a crash) keeps the id it was given when it arrived
    const requestId = currentPostScope()?.requestId ?? newRequestId(); // r- and 12 hex digits either way
    context.requestId = requestId;
    await withRequestId(requestId, async () => {
      logger.info('slack request', {
        type: b.command ? 'command' : (b.event?.type ?? b.type ?? 'unknown'),
        ...(b.command ? { command: `${b.command} ${(b.text ?? '').slice(0, 120)}`.trim() } : {}),
        user: b.user_id ?? b.user?.id,
        channel: b.channel_id ?? b.channel?.id,
      });
      await next();
    });
  };
}
