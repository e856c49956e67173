import { SlackPostError } from '../../../src/slack/slack-poster.js';
import { createPostingClient, createSlackPoster, createSlackWebClient } from '../../../src/slack/web-api-poster.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';

let slack: FakeSlackApi;
beforeAll(async () => {
  slack = await startFakeSlackApi();
});
afterAll(async () => slack.close());
beforeEach(() => slack.reset());

describe('slack poster', () => {
  const poster = () =>
    createSlackPoster(createSlackWebClient({ botToken: 'xoxb-unit', apiUrl: slack.apiUrl, retries: 2 }));

  it('posts in a thread, updates, and answers ephemerally with the bot token', async () => {
    const p = poster();
    const ts = await p.post('C1', { text: 'hello', blocks: [] }, '1.1');
    expect(ts).toMatch(/^\d+\.\d+$/);
    await p.update('C1', ts, { text: 'done', blocks: [] });
    await p.ephemeral('C1', 'U1', { text: 'psst', blocks: [] });
    expect(slack.calls.map((c) => c.method)).toEqual(['chat.postMessage', 'chat.update', 'chat.postEphemeral']);
    expect(slack.calls[0]!.body).toMatchObject({ channel: 'C1', thread_ts: '1.1', text: 'hello' });
    expect(slack.calls[1]!.body).toMatchObject({ channel: 'C1', ts, text: 'done' });
    expect(slack.calls[2]!.body).toMatchObject({ channel: 'C1', user: 'U1' });
    expect(slack.calls.every((c) => c.auth === 'Bearer xoxb-unit')).toBe(true);
  });

  it('waits out a 429 for Retry-After seconds, then succeeds', async () => {
    slack.rateLimitNext(1, 1);
    const started = Date.now();
    await poster().post('C1', { text: 'x', blocks: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(slack.calls.map((c) => c.status)).toEqual([429, 200]);
  });

  it('a delete of a message already gone (a job run again after a crash) counts as done; other refusals still throw', async () => {
    slack.failMethod('chat.delete', 'message_not_found');
    await expect(poster().delete!('C1', '1.1')).resolves.toBeUndefined();
    slack.failMethod('chat.delete', 'cant_delete_message');
    await expect(poster().delete!('C1', '1.1')).rejects.toMatchObject({ slackError: 'cant_delete_message' });
  });

  it('turns not_in_channel into SLACK_NOT_IN_CHANNEL', async () => {
    slack.failChannel('C9', 'not_in_channel');
    await expect(poster().post('C9', { text: 'x', blocks: [] })).rejects.toMatchObject({
      code: 'SLACK_NOT_IN_CHANNEL',
    });
    await expect(poster().post('C9', { text: 'x', blocks: [] })).rejects.toBeInstanceOf(SlackPostError);
  });
});

describe('slack poster: retries that never duplicate a post', () => {
  const poster = () =>
    createSlackPoster(createPostingClient({ botToken: 'xoxb-unit', apiUrl: slack.apiUrl }), { backoffMs: 10 });
  const stored = (channel: string) => slack.store.all().filter((m) => m.channel === channel);

  it.each([
    ['posts, then answers 500', 'after', 'C0AFTER'],
    ['posts, then drops the connection (a timeout to the bot)', 'drop', 'C0DROP'],
  ] as const)('Slack %s: the retry finds the post (one message, its ts)', async (_what, mode, channel) => {
    slack.failPosts(1, mode);
    const ts = await poster().post(channel, { text: 'root', blocks: [] });
    expect(stored(channel).map((m) => m.ts)).toEqual([ts]);
  });

  it('finds a reply in its thread after a 500 that posted it', async () => {
    const root = await poster().post('C0THREAD', { text: 'root', blocks: [] });
    slack.failPosts(1, 'after');
    const ts = await poster().post('C0THREAD', { text: 'reply', blocks: [] }, root);
    expect(
      stored('C0THREAD')
        .filter((m) => m.threadTs === root)
        .map((m) => m.ts),
    ).toEqual([ts]);
  });

  it('posts again after a 500 that did not post', async () => {
    slack.failPosts(2, 'before');
    const ts = await poster().post('C0BEFORE', { text: 'x', blocks: [] });
    expect(stored('C0BEFORE').map((m) => m.ts)).toEqual([ts]);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage').map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it('waits out 429s for Retry-After, then posts once', async () => {
    slack.rateLimitNext(2, 1, 'chat.postMessage');
    await poster().post('C0LIMIT', { text: 'x', blocks: [] });
    expect(stored('C0LIMIT')).toHaveLength(1);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage').map((c) => c.status)).toEqual([429, 429, 200]);
  });

  it.each([
    ['no channels:history scope', 'C0NOSCOPE', () => slack.failMethod('conversations.history', 'missing_scope')],
    ['history rate-limited for a minute', 'C0HISTLIM', () => slack.rateLimitNext(1, 60, 'conversations.history')],
  ])(
    '%s: the look-up cannot tell, so the post degrades to posting again (a warning), never fails',
    async (_w, channel, fault) => {
      fault();
      slack.failPosts(1, 'before');
      const warnings: string[] = [];
      const p = createSlackPoster(createPostingClient({ botToken: 'xoxb-unit', apiUrl: slack.apiUrl }), {
        backoffMs: 10,
        warn: (m) => warnings.push(m),
      });
      const ts = await p.post(channel, { text: 'x', blocks: [] });
      expect(stored(channel).map((m) => m.ts)).toEqual([ts]);
      expect(warnings).toEqual([expect.stringContaining(`could not tell whether a post to ${channel} landed`)]);
    },
  );

  it('the look-up reads one page of 15, never waits out a long Retry-After', async () => {
    slack.failPosts(1, 'after');
    await poster().post('C0PAGE', { text: 'x', blocks: [] });
    const lookups = slack.calls.filter((c) => c.method === 'conversations.history');
    expect(lookups.map((c) => Number(c.body.limit))).toEqual([15]);
  });

  it('a post that may have landed before a crash (its key given) is looked up first and adopted', async () => {
    const since = Date.now();
    const first = await poster().post('C0ADOPT', { text: 'root', blocks: [] }, undefined, { key: 'k-adopt' });
    const again = await poster().post('C0ADOPT', { text: 'root', blocks: [] }, undefined, {
      key: 'k-adopt',
      maybePostedSince: since,
    });
    const other = await poster().post('C0ADOPT', { text: 'root', blocks: [] }, undefined, {
      key: 'k-other',
      maybePostedSince: since,
    });
    expect(again).toBe(first);
    expect(stored('C0ADOPT').map((m) => m.ts)).toEqual([first, other]);
  });

  it('retries an update after a 500', async () => {
    const ts = await poster().post('C0UPD', { text: 'Diagnosing…', blocks: [] });
    slack.rateLimitNext(1, 1, 'chat.update');
    await poster().update('C0UPD', ts, { text: '❌ done', blocks: [] });
    expect(stored('C0UPD')[0]!.text).toBe('❌ done');
  });
});
