/**
 * End to end in Socket Mode (SLACK_APP_TOKEN set): the app opens its connection through
 * apps.connections.open on SLACK_API_URL, receives a slash command and an app mention over the
 * WebSocket, acks them, and answers in threads; health routes on their own port. Also /isvc status.
 */
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import {
  type FakeSocketMode,
  socketAppMention,
  socketSlashCommand,
  startFakeSocketMode,
} from '../support/fake-socket-mode.js';
import { startBotHarness, textOf, type BotHarness } from './slack-harness.js';

let slack: FakeSlackApi;
let socket: FakeSocketMode;
let h: BotHarness;
let startCalls: Array<{ method: string; auth: string | undefined }> = [];

beforeAll(async () => {
  slack = await startFakeSlackApi();
  socket = await startFakeSocketMode();
  slack.setSocketUrl(socket.url);
  h = await startBotHarness({ slack, appToken: 'xapp-fake-e2e' });
  await socket.waitForClient();
  startCalls = slack.calls.map((c) => ({ method: c.method, auth: c.auth }));
});
afterAll(async () => {
  await h?.close();
  await socket?.close();
  await slack?.close();
});
beforeEach(() => slack.reset());

const verdictPosted = (channel: string) => (calls: FakeSlackApi['calls']) =>
  calls.some((c) => c.method === 'chat.update' && c.body.channel === channel && /^[❌✅❔]/u.test(String(c.body.text)));

const command = (text: string, channel: string) => socketSlashCommand(text, channel, slack.responseUrl(channel));

describe('Socket Mode', () => {
  it('opened its connection with the app token through SLACK_API_URL', () => {
    expect(h.bot.app).not.toBeNull();
    expect(h.config.slack.socketMode).toBe(true);
    expect(startCalls).toContainEqual({ method: 'auth.test', auth: 'Bearer xoxb-e2e-token' });
    expect(startCalls).toContainEqual({ method: 'apps.connections.open', auth: 'Bearer xapp-fake-e2e' });
  });

  it('acks a slash command and answers in the thread', async () => {
    const ack = await socket.send('slash_commands', command('diagnose sklearn-iris', 'C0SOCK'));
    expect(ack.ms).toBeLessThan(3000);
    await slack.waitFor(verdictPosted('C0SOCK'), 20_000);
    const posts = slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0SOCK');
    expect(posts[0]!.body.text).toBe('Diagnosing default/sklearn-iris…');
    expect(posts[1]!.body.thread_ts).toBe(posts[0]!.response!.ts);
    expect(textOf(posts[1]!.body)).toContain('STORAGE_URI_NOT_FOUND');
  });

  it('answers an app mention inside a thread, in that thread', async () => {
    await socket.send(
      'events_api',
      socketAppMention({
        eventId: 'Ev1',
        text: '<@U0BOT> diagnose default/sklearn-iris',
        channel: 'C0MENTION',
        ts: '1700.000200',
        threadTs: '1700.000100',
      }),
    );
    await slack.waitFor(verdictPosted('C0MENTION'), 20_000);
    const posts = slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0MENTION');
    for (const p of posts) expect(p.body.thread_ts).toBe('1700.000100');
    expect(posts.map((p) => textOf(p.body)).join('\n')).toContain('STORAGE_URI_NOT_FOUND');
  });

  it('runs an event Slack delivers four times (retry_attempt 0-3, one event_id) once: one answer', async () => {
    const mention = socketAppMention({
      eventId: 'EvRetried',
      text: '<@U0BOT> status -n default',
      channel: 'C0RETRIED',
      ts: '1700.000400',
    });
    const acks = [];
    for (let attempt = 0; attempt < 4; attempt++)
      acks.push(
        await socket.send(
          'events_api',
          mention,
          5000,
          attempt === 0 ? {} : { retry_attempt: attempt, retry_reason: 'timeout' },
        ),
      );
    expect(acks).toHaveLength(4);
    const answers = () =>
      slack
        .callsTo('chat.postMessage')
        .filter((c) => c.body.channel === 'C0RETRIED' && /^1 InferenceService in default/.test(String(c.body.text)));
    await slack.waitFor(() => answers().length > 0, 20_000);
    // time for a second run to show itself, had one been started
    await new Promise((r) => setTimeout(r, 1500));
    expect(answers()).toHaveLength(1);
  });

  it('answers bad input in a mention with chat.postEphemeral', async () => {
    await socket.send(
      'events_api',
      socketAppMention({ eventId: 'Ev2', text: '<@U0BOT> diagnose NOPE', channel: 'C0MENTION', ts: '1700.000300' }),
    );
    await slack.waitFor((calls) => calls.some((c) => c.method === 'chat.postEphemeral'));
    const e = slack.callsTo('chat.postEphemeral')[0]!;
    expect(e.body).toMatchObject({ channel: 'C0MENTION', user: 'U0BOB' });
    expect(e.body.text).toContain('is not a valid InferenceService name');
  });

  it('lists a namespace with /isvc status', async () => {
    await socket.send('slash_commands', command('status -n default', 'C0STATUS'));
    await slack.waitFor(
      (calls) => calls.some((c) => c.method === 'chat.postMessage' && c.body.channel === 'C0STATUS'),
      20_000,
    );
    const msg = slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0STATUS')!;
    expect(msg.body.text).toMatch(/^1 InferenceService in default, 1 not ready$/);
    expect(textOf(msg.body)).toContain('`sklearn-iris`');
  });

  it('lists every namespace the bot may read with /isvc status (no -n), saying which, each row NAMESPACE/NAME', async () => {
    await socket.send('slash_commands', command('status', 'C0STATUSALL'));
    await slack.waitFor(
      (calls) => calls.some((c) => c.method === 'chat.postMessage' && c.body.channel === 'C0STATUSALL'),
      20_000,
    );
    const msg = slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0STATUSALL')!;
    // the harness's config allows default and kserve-test: both are read and named
    expect(msg.body.text).toBe(
      '1 InferenceService in the namespaces this bot may read (default, kserve-test), 1 not ready',
    );
    expect(textOf(msg.body)).toContain('`default/sklearn-iris`');
  });

  it('serves the health routes on METRICS_PORT', async () => {
    expect((await fetch(`${h.bot.metricsUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${h.bot.metricsUrl}/metrics`)).status).toBe(200);
  });
});
