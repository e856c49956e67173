/**
 * Slack failing around the bot's posts (defect 6), end to end: a post that lands and then errors
 * (500, or the connection dropped as a timeout looks) is not posted twice, a reply Slack refuses
 * still leaves the root with its verdict, and a remediation offer Slack refuses is not blamed on
 * the plan.
 */
import { postSignedCommand } from '../support/slack-signing.js';
import { diagnosisThread } from '../support/diagnosis-thread.js';
import { until } from '../support/until.js';
import { SIGNING_SECRET, startBotHarness, type BotHarness } from './slack-harness.js';

let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness({ scenario: 'oom-exit-code-137', file: { approvers: ['U0APPROVER'] } });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => h.slack.reset());

const verdict = (channel: string) => (calls: typeof h.slack.calls) =>
  calls.some((c) => c.method === 'chat.update' && c.body.channel === channel && /^[❌✅❔]/u.test(String(c.body.text)));
const posts = (channel: string) => h.slack.store.all().filter((m) => m.channel === channel && !m.ephemeralTo);

describe('posts that land and then fail', () => {
  it.each(['after', 'drop'] as const)(
    'a root and a reply that Slack posts and then fails (%s) appear once each',
    async (mode) => {
      const channel = `C0POST${mode.toUpperCase()}`;
      let replies = 0;
      const off = h.slack.onCall((c) => {
        if (c.method !== 'chat.postMessage' || c.body.channel !== channel) return;
        if (!c.body.thread_ts) return; // the root: failed below, before the command
        replies += 1;
        if (replies === 1) h.slack.failPosts(1, mode); // the second reply lands, then fails
      });
      h.slack.failPosts(1, mode); // the root lands, then fails
      try {
        expect(
          (await postSignedCommand(h.eventsUrl, SIGNING_SECRET, { text: 'diagnose sklearn-iris', channel_id: channel }))
            .status,
        ).toBe(200);
        await h.slack.waitFor(verdict(channel), 30_000);
      } finally {
        off();
      }
      const stored = posts(channel);
      expect(stored.filter((m) => !m.threadTs)).toHaveLength(1);
      const texts = stored.filter((m) => m.threadTs).map((m) => m.text);
      expect(new Set(texts).size).toBe(texts.length);
      const { replies: threadReplies } = diagnosisThread(
        h.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === channel),
      );
      expect(threadReplies.length).toBeGreaterThan(1);
    },
  );
});

describe('an offer Slack refuses', () => {
  it('is logged as a Slack failure, not told in the thread as a plan that could not be computed', async () => {
    const channel = 'C0OFFERLOST';
    // once the verdict is in, Slack starts refusing this channel: the offer's post fails
    const off = h.slack.onCall((c) => {
      if (verdict(channel)([c])) h.slack.failChannel(channel, 'fatal_error');
    });
    const completed = () => h.bot.queue.queue.getJobCountByTypes('completed');
    const before = await completed();
    try {
      await postSignedCommand(h.eventsUrl, SIGNING_SECRET, { text: 'diagnose sklearn-iris', channel_id: channel });
      await h.slack.waitFor(
        (calls) =>
          calls.some(
            (c) =>
              c.method === 'chat.postMessage' &&
              c.body.channel === channel &&
              JSON.stringify(c.body.blocks ?? []).includes('remediation.approve'),
          ),
        30_000,
      );
      // the offer was tried and refused; the job then ends (offers are its last step)
      await until(async () => (await completed()) > before, 'the diagnosis job to finish');
    } finally {
      off();
    }
    const after = h.slack.calls
      .filter((c) => c.method === 'chat.postMessage' && c.body.channel === channel)
      .map((c) => String(c.body.text));
    expect(after.filter((t) => t.includes('No automatic fix offered'))).toEqual([]);
  });
});
