import { SlackPostError } from '../../../src/slack/slack-poster.js';
import { createSlackPoster, createSlackWebClient } from '../../../src/slack/web-api-poster.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';

let slack: FakeSlackApi;
beforeAll(async () => {
  slack = await startFakeSlackApi();
});
afterAll(async () => slack.close());
beforeEach(() => slack.reset());

describe('slack poster', () => {
  const poster = () => createSlackPoster(createSlackWebClient({ botToken: 'xoxb-unit', apiUrl: slack.apiUrl, retries: 2 }));

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

  it('turns not_in_channel into SLACK_NOT_IN_CHANNEL', async () => {
    slack.failChannel('C9', 'not_in_channel');
    await expect(poster().post('C9', { text: 'x', blocks: [] })).rejects.toMatchObject({ code: 'SLACK_NOT_IN_CHANNEL' });
    await expect(poster().post('C9', { text: 'x', blocks: [] })).rejects.toBeInstanceOf(SlackPostError);
  });
});
