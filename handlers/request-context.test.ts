/**
 * The middleware every Slack request passes first: a request id on Bolt's context and in the logging
 * context of everything after it (the same id when the front door runs the request again), and one
 * line saying what arrived.
 */
import { describe, expect, it } from '@jest/globals';
import { requestContext } from './request-context.js';
import { currentRequestId, type LogFields, type Logger } from '../src/core/logger.js';
import { withPostScope } from '../src/core/post-scope.js';

function recordingLogger() {
  const lines: Array<{ message: string; fields: LogFields | undefined; requestId: string | undefined }> = [];
  const log = (message: string, fields?: LogFields) =>
    void lines.push({ message, fields, requestId: currentRequestId() });
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  return { logger, lines };
}

const slashCommand = {
  command: '/isvc',
  text: 'diagnose sklearn-iris -n kserve-test',
  user_id: 'U1',
  channel_id: 'C1',
};

async function pass(logger: Logger, body: object) {
  const middleware = requestContext(logger);
  const context: Record<string, unknown> = {};
  const seen: Array<string | undefined> = [];
  const args = { body, context, next: async () => void seen.push(currentRequestId()) };
  await middleware(args as unknown as Parameters<typeof middleware>[0]);
  return { context, seen };
}

describe('request context middleware', () => {
  it('puts a new request id on the context and in the logging context of what comes after', async () => {
    const { logger, lines } = recordingLogger();
    const { context, seen } = await pass(logger, slashCommand);
    expect(context.requestId).toMatch(/^r-[0-9a-f]{12}$/);
    expect(seen).toEqual([context.requestId]);
    expect(lines).toEqual([
      {
        message: 'slack request',
        fields: {
          type: 'command',
          command: '/isvc diagnose sklearn-iris -n kserve-test',
          user: 'U1',
          channel: 'C1',
        },
        requestId: context.requestId,
      },
    ]);
  });

  it('keeps the id a request was given when it arrived, when the front door runs it again', async () => {
    const { logger } = recordingLogger();
    const { context, seen } = await withPostScope('inbox-1', () => pass(logger, slashCommand), 'r-00000000beef');
    expect(context.requestId).toBe('r-00000000beef');
    expect(seen).toEqual(['r-00000000beef']);
  });

  it('names an event by its type and a click by its payload type', async () => {
    const { logger, lines } = recordingLogger();
    await pass(logger, { type: 'event_callback', event: { type: 'app_mention' } });
    await pass(logger, { type: 'block_actions', user: { id: 'U2' }, channel: { id: 'C1' } });
    expect(lines.map((l) => l.fields)).toEqual([
      { type: 'app_mention', user: undefined, channel: undefined },
      { type: 'block_actions', user: 'U2', channel: 'C1' },
    ]);
  });
});
