/**
 * The Bolt app's start: `auth.test` against SLACK_API_URL with the bot token; a token Slack refuses
 * stops the start with Slack's own error code (web-api 8's WebAPIPlatformError), not a stack.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildSlackApp, SlackStartError } from '../../../src/bot/build-app.js';
import type { Logger } from '../../../src/core/logger.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let slack: FakeSlackApi;
beforeAll(async () => {
  slack = await startFakeSlackApi({ token: 'xoxb-right' });
});
afterAll(async () => slack.close());

const build = (botToken: string) =>
  buildSlackApp({
    slack: { botToken, signingSecret: 'secret', appToken: null, apiUrl: slack.apiUrl, socketMode: false },
    port: 0,
    routes: [],
    logger: quiet,
  });

describe('buildSlackApp', () => {
  it('checks the bot token with auth.test at start', async () => {
    await expect(build('xoxb-right')).resolves.toBeDefined();
    expect(slack.calls.filter((c) => c.method === 'auth.test').map((c) => c.auth)).toEqual(['Bearer xoxb-right']);
  });

  it("stops on a token Slack refuses, saying Slack's error", async () => {
    const started = build('xoxb-wrong');
    await expect(started).rejects.toBeInstanceOf(SlackStartError);
    await expect(started).rejects.toThrow('Slack auth.test failed: invalid_auth');
  });
});
