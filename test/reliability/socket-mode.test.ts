/**
 * Socket Mode (part of the reliability suite): the real `serve` child connected to the Socket Mode
 * stand-in (SLACK_APP_TOKEN set), SIGKILLed right after it acked 20 slash commands; a new process
 * on the same queue answers every acked command, one root each, none left "Diagnosing…". Before the
 * Socket Mode front door wrote each envelope to the inbox before its ack, 11 of 20 were lost.
 * An app mention Slack delivers 4 times (retry_attempt 0-3, one event_id) is answered once.
 * Prints `reliability: socket mode kill: commands lost 0`, the duplicates, and the answers to the redelivered event.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import {
  type FakeSocketMode,
  socketAppMention,
  socketSlashCommand,
  startFakeSocketMode,
} from '../support/fake-socket-mode.js';
import { ensureFreshDist } from '../support/fresh-dist.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';
import { until } from '../support/until.js';
import { figure, startServeChild, workDir, type ServeChild } from './serve-child.js';
import { slackOutcomes } from './slack-outcomes.js';

const dir = workDir('socket');
let slack: FakeSlackApi;
let socket: FakeSocketMode;
let sim: RunningSimulator;
const started: ServeChild[] = [];
const queueName = `rel-socket-${randomUUID().slice(0, 6)}`;
const { answered, rootsIn, duplicatesIn, ephemeralRepeatsIn, stuckIn, report } = slackOutcomes(() => slack);

beforeAll(async () => {
  await ensureFreshDist();
  slack = await startFakeSlackApi();
  socket = await startFakeSocketMode();
  slack.setSocketUrl(socket.url);
  // 150 ms a request: the diagnoses are still running when the process is killed
  sim = await startSimulator({
    snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found')),
    latencyMs: 150,
  });
}, 120_000);
afterAll(async () => {
  for (const b of started) await b.stop(3000).catch(() => undefined);
  await deleteRedisKeys(testRedisUrl(), `bull:${queueName}:*`);
  await sim?.close();
  await socket?.close();
  await slack?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serveSocketMode(): Promise<ServeChild> {
  const b = await startServeChild({
    dir,
    secret: 'unused-in-socket-mode',
    slackApiUrl: slack.apiUrl,
    redisUrl: testRedisUrl(),
    kubeServer: sim.url,
    queueName,
    env: { SLACK_APP_TOKEN: 'xapp-fake-reliability' },
  });
  started.push(b);
  await socket.waitForClient(30_000);
  return b;
}

const slashCommand = (text: string, channel: string) =>
  socketSlashCommand(text, channel, slack.responseUrl(`${channel}-${randomUUID().slice(0, 6)}`));

describe('Socket Mode, the bot killed', () => {
  it('SIGKILL right after 20 acks: every acked command answered by the next process, one root each', async () => {
    const first = await serveSocketMode();
    const attempt = randomUUID().slice(0, 4).toUpperCase();
    const all = Array.from({ length: 20 }, (_, i) => `C0SOCKKILL${attempt}X${i}`);
    const acks = await Promise.all(
      all.map((c, i) =>
        socket
          .send('slash_commands', slashCommand(i === 0 ? 'diagnose sklearn-iris' : `diagnose acked-${i}`, c), 10_000)
          .then(
            () => true,
            () => false,
          ),
      ),
    );
    first.child.kill('SIGKILL'); // at once: the work after the acks has not run (or not finished)
    await first.exited;
    // an envelope the kill cut off before its ack is Slack's to deliver again: only the acked ones are the bot's
    const channels = all.filter((_, i) => acks[i]);
    const second = await serveSocketMode();
    await until(() => channels.every(answered), 'the acked commands answered by the next process', 60_000).catch(
      (e) => {
        console.log('socket mode: what each channel got', report(channels));
        console.log(
          'socket mode: warnings',
          JSON.stringify([first, second].map((b) => b.logs.filter((l) => l.level !== 'info').slice(-20))),
        );
        throw e;
      },
    );
    // an answer told ephemerally is followed by its root's removal: stuck means still there 15 s later
    await until(() => stuckIn(channels) === 0, 'no root left "Diagnosing…"', 15_000).catch(() => undefined);
    const lost = channels.filter((c) => !answered(c)).length;
    const notOneRoot = channels.filter((c) => rootsIn(c).length !== 1).length;
    const dups = channels.reduce((n, c) => n + duplicatesIn(c) + Math.max(0, rootsIn(c).length - 1), 0);
    const stuck = stuckIn(channels);
    // a kill during an ephemeral answer's Slack call sends it again (once-poster.ts): at most once per channel
    const repeats = channels.map(ephemeralRepeatsIn);
    if (dups > 0 || notOneRoot > 0 || stuck > 0) console.log('socket mode: what each channel got', report(channels));
    figure('socket mode kill: commands acked', channels.length);
    figure('socket mode kill: commands lost', lost);
    figure('socket mode kill: channels without exactly one root', notOneRoot);
    figure('socket mode kill: duplicate posts', dups);
    figure('socket mode kill: roots left "Diagnosing…"', stuck);
    figure(
      'socket mode kill: ephemeral answers sent again',
      repeats.reduce((a, b) => a + b, 0),
    );
    expect(channels.length).toBeGreaterThan(0);
    expect(lost).toBe(0);
    expect(notOneRoot).toBe(0);
    expect(dups).toBe(0);
    expect(stuck).toBe(0);
    expect(Math.max(0, ...repeats)).toBeLessThanOrEqual(1);
  });

  it('an event delivered 4 times (retry_attempt 0-3, one event_id) is answered once', async () => {
    await serveSocketMode();
    const channel = `C0SOCKRETRY${randomUUID().slice(0, 4).toUpperCase()}`;
    const mention = socketAppMention({
      eventId: `Ev${randomUUID().slice(0, 8)}`,
      text: '<@U0BOT> status -n default',
      channel,
      ts: '1700.000500',
    });
    for (let attempt = 0; attempt < 4; attempt++)
      await socket.send(
        'events_api',
        mention,
        10_000,
        attempt === 0 ? {} : { retry_attempt: attempt, retry_reason: 'timeout' },
      );
    const answers = () =>
      slack.calls.filter((c) => c.method === 'chat.postMessage' && c.status === 200 && c.body.channel === channel);
    await until(() => answers().length > 0, 'the status answer', 30_000);
    // time for a second run to show itself, had one been started
    await new Promise((r) => setTimeout(r, 2000));
    figure('socket mode event delivered 4 times: answers', answers().length);
    expect(answers()).toHaveLength(1);
  });
});
