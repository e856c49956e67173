/**
 * The Slack stand-in answers as Slack does: Block Kit limits (invalid_blocks with JSON pointers,
 * msg_too_long), channel membership (not_in_channel), tokens, unknown messages in strict mode,
 * threads and ephemeral messages kept in the workspace store, 429 with Retry-After on demand, and
 * response_url replies applied (ephemeral, in_channel, replace_original).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { checkMessage } from '../../../src/slack-standin/block-kit-limits.js';
import { startSlackStandin, type SlackStandin } from '../../../src/slack-standin/slack-standin.js';

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('checkMessage (Block Kit limits)', () => {
  it('accepts text alone and a well-formed message', () => {
    expect(checkMessage({ text: 'hi' })).toBeNull();
    expect(
      checkMessage({
        text: 'x',
        blocks: [
          section('a'),
          { type: 'divider' },
          {
            type: 'actions',
            elements: [
              { type: 'button', text: { type: 'plain_text', text: 'Go' }, action_id: 'a.b', style: 'primary' },
            ],
          },
        ],
      }),
    ).toBeNull();
  });

  it('refuses what Slack refuses, naming where', () => {
    expect(checkMessage({ text: 'x', blocks: Array.from({ length: 51 }, () => section('a')) })).toEqual({
      error: 'invalid_blocks',
      messages: ['no more than 50 items allowed [json-pointer:/blocks]'],
    });
    expect(checkMessage({ text: 'x', blocks: [section('a'.repeat(3001))] })?.messages).toEqual([
      'must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
    ]);
    expect(
      checkMessage({ text: 'x', blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'h' } }] })?.messages,
    ).toEqual(['must be plain_text [json-pointer:/blocks/0/text/type]']);
    expect(checkMessage({ text: 'x', blocks: [{ type: 'section' }] })?.messages).toEqual([
      'must provide either text or fields [json-pointer:/blocks/0]',
    ]);
    expect(
      checkMessage({
        text: 'x',
        blocks: [
          {
            type: 'actions',
            elements: [{ type: 'button', text: { type: 'plain_text', text: 'b'.repeat(76) }, style: 'green' }],
          },
        ],
      })?.messages,
    ).toEqual([
      'must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]',
      'must be one of primary, danger [json-pointer:/blocks/0/elements/0/style]',
    ]);
    expect(checkMessage({ text: 'x', blocks: [{ type: 'carousel' }] })?.error).toBe('invalid_blocks');
    expect(checkMessage({ text: 'y'.repeat(40_001) })?.error).toBe('msg_too_long');
    expect(checkMessage({})?.error).toBe('no_text');
  });
});

describe('the stand-in in strict mode', () => {
  let slack: SlackStandin;
  const call = async (method: string, body: Record<string, unknown>, token = 'xoxb-right') => {
    const res = await fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as Record<string, any>,
    };
  };

  beforeAll(async () => {
    slack = await startSlackStandin({ strict: true, token: 'xoxb-right' });
    slack.store.channels.set('C0IN', { id: 'C0IN', name: 'in', botMember: true });
    slack.store.channels.set('C0OUT', { id: 'C0OUT', name: 'out', botMember: false });
  });
  afterAll(async () => {
    await slack?.close();
  });

  it('keeps messages, thread replies and ephemeral messages; edits in place', async () => {
    const root = (await call('chat.postMessage', { channel: 'C0IN', text: 'root' })).body;
    expect(root).toMatchObject({ ok: true, channel: 'C0IN' });
    expect((await call('chat.postMessage', { channel: 'C0IN', text: 'reply', thread_ts: root.ts })).body.ok).toBe(true);
    expect(
      (await call('chat.postEphemeral', { channel: 'C0IN', user: 'U0A', text: 'psst', thread_ts: root.ts })).body.ok,
    ).toBe(true);
    expect((await call('chat.update', { channel: 'C0IN', ts: root.ts, text: 'root, edited' })).body.ok).toBe(true);
    const stored = slack.store.get('C0IN', root.ts)!;
    expect(stored).toMatchObject({ text: 'root, edited', replyCount: 1, replyUsers: ['U0BOT'] });
    expect(stored.editedTs).toBeDefined();
    expect(slack.store.all().find((m) => m.text === 'psst')).toMatchObject({ ephemeralTo: 'U0A', threadTs: root.ts });
  });

  it("answers Slack's errors: not_in_channel, channel_not_found, message_not_found, thread_not_found, invalid_auth, invalid_blocks", async () => {
    expect((await call('chat.postMessage', { channel: 'C0OUT', text: 'x' })).body.error).toBe('not_in_channel');
    expect((await call('chat.postMessage', { channel: 'C0NOPE', text: 'x' })).body.error).toBe('channel_not_found');
    expect((await call('chat.update', { channel: 'C0IN', ts: '1.000001', text: 'x' })).body.error).toBe(
      'message_not_found',
    );
    expect((await call('chat.postMessage', { channel: 'C0IN', text: 'x', thread_ts: '1.000001' })).body.error).toBe(
      'thread_not_found',
    );
    expect((await call('chat.postMessage', { channel: 'C0IN', text: 'x' }, 'xoxb-wrong')).body.error).toBe(
      'invalid_auth',
    );
    const refused = (
      await call('chat.postMessage', { channel: 'C0IN', text: 'x', blocks: [section('z'.repeat(3001))] })
    ).body;
    expect(refused).toMatchObject({
      ok: false,
      error: 'invalid_blocks',
      response_metadata: { messages: ['[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]'] },
    });
  });

  it('answers 429 with Retry-After for the next calls when told to', async () => {
    slack.rateLimitNext(1, 7, 'chat.postMessage');
    const limited = await call('chat.postMessage', { channel: 'C0IN', text: 'x' });
    expect({ status: limited.status, retryAfter: limited.retryAfter, error: limited.body.error }).toEqual({
      status: 429,
      retryAfter: '7',
      error: 'ratelimited',
    });
    expect((await call('chat.postMessage', { channel: 'C0IN', text: 'x' })).status).toBe(200);
  });

  it('applies response_url replies: ephemeral by default, in_channel, replace_original of the clicked message', async () => {
    const post = (id: string, body: Record<string, unknown>) =>
      fetch(slack.responseUrl(id), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const first = slack.responses.register({ channel: 'C0IN', user: 'U0A' });
    await post(first, { text: 'only you' });
    await post(first, { text: 'everyone', response_type: 'in_channel' });
    expect(slack.store.all().find((m) => m.text === 'only you')?.ephemeralTo).toBe('U0A');
    expect(slack.store.all().find((m) => m.text === 'everyone')?.ephemeralTo).toBeUndefined();
    const clicked = (await call('chat.postMessage', { channel: 'C0IN', text: 'with buttons' })).body.ts as string;
    const second = slack.responses.register({ channel: 'C0IN', user: 'U0A', messageTs: clicked });
    await post(second, { text: 'decided', replace_original: true });
    expect(slack.store.get('C0IN', clicked)?.text).toBe('decided');
  });
});
