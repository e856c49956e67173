/**
 * The once-poster on real Redis and the Slack stand-in: a post scope run again (its process killed)
 * posts nothing twice, also when the kill fell between Slack accepting a post and Redis recording it;
 * an ephemeral answer sent by the first run is not sent again.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { withPostScope } from '../../../src/core/post-scope.js';
import { oncePoster } from '../../../src/slack/once-poster.js';
import type { SlackPoster } from '../../../src/slack/slack-poster.js';
import { createPostingClient, createSlackPoster } from '../../../src/slack/web-api-poster.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { deleteRedisKeys, testRedisUrl } from '../../support/test-redis.js';

let slack: FakeSlackApi;
let redis: Redis;
const prefix = `once-${randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  slack = await startFakeSlackApi();
  redis = new Redis(testRedisUrl());
});
afterAll(async () => {
  await deleteRedisKeys(testRedisUrl(), `${prefix}:*`);
  redis.disconnect();
  await slack.close();
});
beforeEach(() => slack.reset());

const slackPoster = () =>
  createSlackPoster(createPostingClient({ botToken: 'xoxb-unit', apiUrl: slack.apiUrl }), { backoffMs: 10 });
const stored = (channel: string) => slack.store.all().filter((m) => m.channel === channel);
const ephemeralsTo = (channel: string) =>
  slack.calls.filter((c) => c.method === 'chat.postEphemeral' && c.body.channel === channel && c.status === 200);

/** A poster whose process "dies" once Slack has the post: the call never returns to record its ts. */
function dyingAfterPost(inner: SlackPoster): SlackPoster {
  return {
    ...inner,
    post: async (channel, message, threadTs, options) => {
      await inner.post(channel, message, threadTs, options);
      throw new Error('SIGKILL');
    },
  };
}

describe('once-poster', () => {
  it('a scope run again returns the recorded ts instead of posting', async () => {
    const p = oncePoster(slackPoster(), redis, prefix);
    const run = () => withPostScope('job-a', () => p.post('C0ONCEA', { text: 'Diagnosing…', blocks: [] }));
    const first = await run();
    expect(await run()).toBe(first);
    expect(stored('C0ONCEA')).toHaveLength(1);
  });

  it('killed between Slack accepting the post and Redis recording it: the next run adopts that post', async () => {
    const dying = oncePoster(dyingAfterPost(slackPoster()), redis, prefix);
    await expect(
      withPostScope('job-b', () => dying.post('C0ONCEB', { text: 'Diagnosing…', blocks: [] })),
    ).rejects.toThrow('SIGKILL');
    const next = oncePoster(slackPoster(), redis, prefix);
    const ts = await withPostScope('job-b', () => next.post('C0ONCEB', { text: 'Diagnosing…', blocks: [] }));
    expect(stored('C0ONCEB').map((m) => m.ts)).toEqual([ts]);
  });

  it('killed before the post reached Slack: the next run posts it (once)', async () => {
    const never: SlackPoster = { ...slackPoster(), post: async () => Promise.reject(new Error('SIGKILL')) };
    await expect(
      withPostScope('job-c', () => oncePoster(never, redis, prefix).post('C0ONCEC', { text: 'x', blocks: [] })),
    ).rejects.toThrow('SIGKILL');
    const ts = await withPostScope('job-c', () =>
      oncePoster(slackPoster(), redis, prefix).post('C0ONCEC', { text: 'x', blocks: [] }),
    );
    expect(stored('C0ONCEC').map((m) => m.ts)).toEqual([ts]);
  });

  it('an ephemeral answer sent before the kill is not sent again by the next run; a second answer in the run is', async () => {
    const answer = { text: 'No InferenceService "sklearn-irsi"', blocks: [] };
    const run = () =>
      withPostScope('job-d', async () => {
        const p = oncePoster(slackPoster(), redis, prefix);
        await p.ephemeral('C0ONCED', 'U0ASKER', answer);
        await p.ephemeral('C0ONCED', 'U0ASKER', { text: 'a second answer', blocks: [] });
      });
    await run();
    await run();
    expect(ephemeralsTo('C0ONCED').map((c) => c.body.text)).toEqual([answer.text, 'a second answer']);
  });

  it('an ephemeral answer that never reached Slack is sent by the next run (once)', async () => {
    const never: SlackPoster = { ...slackPoster(), ephemeral: async () => Promise.reject(new Error('SIGKILL')) };
    const answer = { text: 'refused', blocks: [] };
    await expect(
      withPostScope('job-e', () => oncePoster(never, redis, prefix).ephemeral('C0ONCEE', 'U0ASKER', answer, '1.1')),
    ).rejects.toThrow('SIGKILL');
    const again = () =>
      withPostScope('job-e', () =>
        oncePoster(slackPoster(), redis, prefix).ephemeral('C0ONCEE', 'U0ASKER', answer, '1.1'),
      );
    await again();
    await again();
    expect(ephemeralsTo('C0ONCEE')).toHaveLength(1);
  });

  it('outside a post scope every ephemeral answer is sent', async () => {
    const p = oncePoster(slackPoster(), redis, prefix);
    await p.ephemeral('C0ONCEF', 'U0ASKER', { text: 'x', blocks: [] });
    await p.ephemeral('C0ONCEF', 'U0ASKER', { text: 'x', blocks: [] });
    expect(ephemeralsTo('C0ONCEF')).toHaveLength(2);
  });
});
