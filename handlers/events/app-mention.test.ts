/**
 * `@isvc-doctor …`: Bolt acks an event before its listener runs, so the listener hands everything to
 * `afterAck`; the command runs in the thread it was asked in, and what only the asker sees goes to
 * them ephemerally in that thread.
 */
import { describe, expect, it } from '@jest/globals';
import { appMention } from './app-mention.js';
import { handlerFakes, listenerArgs } from '../../test/support/fake-handler-deps.js';

/** An app_mention event as Slack sends it, asked inside a thread. */
function mention(text: string, user: string | null = 'U1') {
  return {
    type: 'app_mention',
    ...(user ? { user } : {}),
    text,
    ts: '1700000100.000200',
    thread_ts: '1700000000.000100',
    channel: 'C1',
    event_ts: '1700000100.000200',
  };
}

async function run(event: ReturnType<typeof mention>) {
  const fakes = handlerFakes();
  const listener = appMention(fakes.deps);
  const body = { type: 'event_callback', team_id: 'T1', api_app_id: 'A1', event, event_id: 'Ev1', event_time: 1 };
  await listener(listenerArgs(listener, { event, payload: event, body, context: { requestId: 'r-0123456789ab' } }));
  return fakes;
}

describe('app_mention listener', () => {
  it('runs the text after the mention in its thread, for the asker, with the request id', async () => {
    const fakes = await run(mention('<@U0BOT> status -n kserve-test'));
    expect(fakes.order[0]).toBe('afterAck');
    expect(fakes.added).toEqual([
      {
        kind: 'status',
        namespace: 'kserve-test',
        channel: 'C1',
        user: 'U1',
        threadTs: '1700000000.000100',
        requestId: 'r-0123456789ab',
      },
    ]);
    // "at work" goes to the asker only, in the thread asked in
    expect(fakes.ephemerals).toEqual([
      expect.objectContaining({ channel: 'C1', user: 'U1', threadTs: '1700000000.000100' }),
    ]);
  });

  it('answers bad input ephemerally in the thread, never a throw', async () => {
    const fakes = await run(mention('<@U0BOT> frobnicate'));
    expect(fakes.added).toEqual([]);
    expect(fakes.ephemerals).toHaveLength(1);
    expect(fakes.ephemerals[0]).toMatchObject({ channel: 'C1', user: 'U1', threadTs: '1700000000.000100' });
    expect(fakes.ephemerals[0]?.message.text).toContain('frobnicate');
  });

  it('does nothing for a mention without a user (an edited or bot message)', async () => {
    const fakes = await run(mention('<@U0BOT> status', null));
    expect(fakes.order).toEqual([]);
  });
});
