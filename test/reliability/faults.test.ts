/**
 * Faults (part of the reliability suite): a real `serve` child with faults in every dependency.
 * - SIGKILL with 20 diagnose jobs queued or running, then a new process → every job answered once;
 * - SIGKILL right after 20 acks, and while Slack takes a root post the bot never hears back about →
 *   the commands are still answered (the inbox, re-run), one root each, none left "Diagnosing…";
 * - SIGKILL Redis (AOF on) mid-run and restart it → the bot recovers without a restart, 0 lost;
 * - two replicas on one Redis, 10 approval clicks spread across them → one PATCH;
 * - the Slack API answering 429 with Retry-After, 500s, posts that land and then fail → retried,
 *   no duplicate posts;
 * - the Kubernetes API slow (3 s a request), gone, or black-holed (SIGSTOP of the simulator) →
 *   a clear message in the thread, never silence.
 * Prints `reliability: jobs lost 0 across kills` and `reliability: duplicate Slack posts 0`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { postSignedClick, proposalIdOf, proposalMessages, writes } from '../e2e/remediation-harness.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { ensureFreshDist } from '../support/fresh-dist.js';
import { freePort } from '../support/redis-server.js';
import { slashCommandBody } from '../support/slack-signing.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';
import { until } from '../support/until.js';
import { slackOutcomes } from './slack-outcomes.js';
import { figure, postSigned, startServeChild, startSimulatorChild, workDir, type ServeChild } from './serve-child.js';

const SECRET = `rel-faults-${randomUUID()}`;
const dir = workDir('faults');
let slack: FakeSlackApi;
const started: ServeChild[] = [];
let jobsLost = 0;
let duplicatePosts = 0;

beforeAll(async () => {
  await ensureFreshDist();
  slack = await startFakeSlackApi();
}, 120_000);

afterAll(async () => {
  for (const b of started) await b.stop(3000).catch(() => undefined);
  await slack?.close();
  rmSync(dir, { recursive: true, force: true });
  figure('jobs lost across kills', jobsLost);
  figure('duplicate Slack posts', duplicatePosts);
  figure('ephemeral answers sent again after a kill during their Slack call', ephemeralRepeats);
});

async function serve(o: {
  redisUrl?: string;
  kubeServer: string;
  queueName?: string;
  file?: Record<string, unknown>;
}): Promise<ServeChild> {
  const b = await startServeChild({
    dir,
    secret: SECRET,
    slackApiUrl: slack.apiUrl,
    redisUrl: o.redisUrl ?? testRedisUrl(),
    kubeServer: o.kubeServer,
    ...(o.queueName ? { queueName: o.queueName } : {}),
    ...(o.file ? { file: o.file } : {}),
  });
  started.push(b);
  return b;
}

async function sigkill(b: ServeChild): Promise<void> {
  b.child.kill('SIGKILL');
  await b.exited;
}

const { answered, rootsIn, duplicatesIn, ephemeralRepeatsIn } = slackOutcomes(() => slack);
/** A process killed during an ephemeral answer's Slack call sends it again (once-poster.ts): at most once per channel. */
let ephemeralRepeats = 0;

/** The warnings and errors of the processes a test ran, for a failure to say what they saw. */
const warningsOf = (children: ServeChild[]) =>
  JSON.stringify(
    children.map((b) =>
      b.logs
        .filter((l) => l.level !== 'info' && l.level !== 'debug')
        .map((l) => String(l.msg).slice(0, 160))
        .slice(-30),
    ),
  );

function command(b: ServeChild, text: string, channel: string, user = 'U0ALICE') {
  return postSigned(
    b.eventsUrl,
    SECRET,
    slashCommandBody({
      text,
      channel_id: channel,
      user_id: user,
      response_url: slack.responseUrl(`${channel}-${randomUUID().slice(0, 6)}`),
    }),
  );
}

describe('the bot killed', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    // 150 ms a request: the diagnoses are still running when the process is killed
    sim = await startSimulator({
      snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found')),
      latencyMs: 150,
    });
  });
  afterAll(async () => sim?.close());

  it('SIGKILL with 20 diagnoses queued or running, then a new process: every one answered once', async () => {
    const queueName = `rel-kill-${randomUUID().slice(0, 6)}`;
    const first = await serve({ kubeServer: sim.url, queueName, file: { queue: { concurrency: 4 } } });
    const attempt = randomUUID().slice(0, 4).toUpperCase();
    const channels = Array.from({ length: 20 }, (_, i) => `C0KILL${attempt}X${i}`);
    for (const [i, channel] of channels.entries())
      expect((await command(first, i === 0 ? 'diagnose sklearn-iris' : `diagnose missing-${i}`, channel)).status).toBe(
        200,
      );
    // every root "Diagnosing…" posted: each job is in Redis (queued or running); some are mid-diagnosis
    await until(() => channels.every((c) => rootsIn(c).length > 0), 'the 20 root messages', 60_000);
    const answeredBefore = channels.filter(answered).length;
    await sigkill(first);
    const second = await serve({ kubeServer: sim.url, queueName, file: { queue: { concurrency: 4 } } });
    await until(() => channels.every(answered), 'every diagnosis answered after the restart', 120_000).catch((e) => {
      console.log(
        'faults: unanswered channels and what each got',
        JSON.stringify(
          channels
            .filter((ch) => !answered(ch))
            .map((ch) => [
              ch,
              slack.calls
                .filter((c) => c.body.channel === ch)
                .map((c) => [c.method, c.status, String(c.body.text).slice(0, 40), c.response?.ok]),
            ]),
        ),
      );
      console.log('faults: warnings of the killed and the next process', warningsOf([first, second]));
      throw e;
    });
    const lost = channels.filter((c) => !answered(c)).length;
    const dups = channels.reduce((n, c) => n + duplicatesIn(c) + Math.max(0, rootsIn(c).length - 1), 0);
    const repeats = channels.map(ephemeralRepeatsIn);
    jobsLost += lost;
    duplicatePosts += dups;
    ephemeralRepeats += repeats.reduce((a, b) => a + b, 0);
    figure('kill with 20 jobs: answered before the kill', answeredBefore);
    figure('kill with 20 jobs: duplicate posts', dups);
    if (dups > 0)
      console.log(
        'faults: channels with a duplicate and what each got',
        JSON.stringify(
          channels
            .filter((ch) => duplicatesIn(ch) + Math.max(0, rootsIn(ch).length - 1) > 0)
            .map((ch) => [
              ch,
              slack.calls
                .filter((c) => c.body.channel === ch)
                .map((c) => [c.method, c.status, String(c.body.text).slice(0, 40), c.body.ts ?? c.response?.ts]),
            ]),
        ),
      );
    expect(lost).toBe(0);
    expect(dups).toBe(0);
    expect(Math.max(0, ...repeats)).toBeLessThanOrEqual(1);
  });

  it.each([
    ['right after the acks', 'acks'],
    ['while Slack takes the 5th root post, before the bot hears back', 'mid-post'],
  ] as const)(
    'SIGKILL %s: 20 commands answered by the next process, one root each, none left "Diagnosing…"',
    async (_when, when) => {
      const queueName = `rel-ack-${randomUUID().slice(0, 6)}`;
      const first = await serve({ kubeServer: sim.url, queueName });
      const attempt = randomUUID().slice(0, 4).toUpperCase();
      const all = Array.from({ length: 20 }, (_, i) => `C0ACKKILL${attempt}X${i}`);
      let off: () => unknown = () => undefined;
      if (when === 'mid-post') {
        let roots = 0;
        // the stand-in records a post before it answers: killed here, Slack has the message and the bot never heard
        off = slack.onCall((c) => {
          const root = c.method === 'chat.postMessage' && c.status === 200 && !c.body.thread_ts;
          if (root && all.includes(String(c.body.channel)) && ++roots === 5) first.child.kill('SIGKILL');
        });
      }
      const acks = await Promise.all(
        all.map((c, i) =>
          command(first, i === 0 ? 'diagnose sklearn-iris' : `diagnose acked-${i}`, c).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      // a command the kill cut off before its ack is Slack's to retry: only the acked ones are the bot's
      const channels = all.filter((_, i) => acks[i] === 200);
      if (when === 'acks')
        await sigkill(first); // at once: the work after the acks has not run (or not finished)
      else await until(() => first.child.exitCode !== null || first.child.signalCode !== null, 'the kill', 60_000);
      await first.exited;
      off();
      const second = await serve({ kubeServer: sim.url, queueName });
      const report = () =>
        JSON.stringify(
          channels.map((ch) =>
            slack.calls
              .filter((c) => c.body.channel === ch)
              .map((c) => [c.method, c.status, String(c.body.text).slice(0, 40), c.body.ts ?? c.response?.ts]),
          ),
        );
      await until(() => channels.every(answered), 'the acked commands answered by the next process', 60_000).catch(
        (e) => {
          console.log('faults: what each channel got', report());
          console.log('faults: warnings of the killed and the next process', warningsOf([first, second]));
          throw e;
        },
      );
      const notOneRoot = channels.filter((c) => rootsIn(c).length !== 1).length;
      const stuckNow = () =>
        slack.store.all().filter((m) => channels.includes(m.channel) && !m.threadTs && m.text.startsWith('Diagnosing'))
          .length;
      // an answer told ephemerally is followed by its root's removal: stuck means still there 15 s later
      await until(() => stuckNow() === 0, 'no root left "Diagnosing…"', 15_000).catch(() => undefined);
      const stuck = stuckNow();
      const dups = channels.reduce((n, c) => n + duplicatesIn(c) + Math.max(0, rootsIn(c).length - 1), 0);
      if (dups > 0 || notOneRoot > 0 || stuck > 0) {
        console.log('faults: what each channel got', report());
        console.log('faults: warnings of the killed and the next process', warningsOf([first, second]));
      }
      const repeats = channels.map(ephemeralRepeatsIn);
      jobsLost += channels.filter((c) => !answered(c)).length;
      duplicatePosts += dups;
      ephemeralRepeats += repeats.reduce((a, b) => a + b, 0);
      figure(`kill ${when}: commands acked`, channels.length);
      figure(`kill ${when}: channels without exactly one root`, notOneRoot);
      figure(`kill ${when}: roots left "Diagnosing…"`, stuck);
      expect(channels.length).toBeGreaterThan(0);
      expect(notOneRoot).toBe(0);
      expect(stuck).toBe(0);
      expect(dups).toBe(0);
      expect(Math.max(0, ...repeats)).toBeLessThanOrEqual(1);
    },
  );
});

describe('Redis killed', () => {
  it('SIGKILL of Redis (AOF on) mid-run and a restart on the same data: the bot recovers without a restart, 0 jobs lost', async () => {
    const redisDir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-rel-aof-'));
    const port = await freePort();
    const startRedis = async (): Promise<ChildProcess> => {
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--dir',
          redisDir,
          '--appendonly',
          'yes',
          '--appendfsync',
          'everysec',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('Ready to accept connections') && resolve());
        child.once('exit', (code) => reject(new Error(`redis-server exited ${code}`)));
      });
      child.stdout!.resume();
      return child;
    };
    let redis = await startRedis();
    const sim = await startSimulator({
      snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found')),
      latencyMs: 100,
    });
    const redisUrl = `redis://127.0.0.1:${port}`;
    try {
      const bot = await serve({ kubeServer: sim.url, redisUrl });
      const channels = Array.from({ length: 8 }, (_, i) => `C0AOF${i}`);
      for (const [i, c] of channels.entries()) await command(bot, `diagnose aof-${i}`, c);
      await until(() => channels.every((c) => rootsIn(c).length > 0), 'the roots', 60_000);
      redis.kill('SIGKILL');
      await new Promise((r) => redis.once('exit', r));
      redis = await startRedis();
      await until(() => channels.every(answered), 'every job answered after Redis came back', 120_000);
      // and it still takes new commands, on the same process
      await command(bot, 'diagnose after-redis', 'C0AOFAFTER');
      await until(() => answered('C0AOFAFTER'), 'a command after the restart answered', 60_000);
      expect(bot.child.exitCode).toBeNull();
      const dups = channels.reduce((n, c) => n + duplicatesIn(c) + ephemeralRepeatsIn(c), 0);
      jobsLost += channels.filter((c) => !answered(c)).length;
      duplicatePosts += dups;
      expect(dups).toBe(0);
    } finally {
      for (const b of started.splice(0)) await b.stop(3000).catch(() => undefined);
      redis.kill('SIGKILL');
      await sim.close();
      rmSync(redisDir, { recursive: true, force: true });
    }
  });
});

describe('two replicas', () => {
  it('10 approval clicks spread across two replicas on one Redis make one PATCH', async () => {
    const sim = await startSimulator({
      snapshot: await loadSnapshot(path.resolve('test/scenarios/oom-exit-code-137')),
    });
    const queueName = `rel-two-${randomUUID().slice(0, 6)}`;
    try {
      const file = { approvers: ['U0APPROVER'], remediation: { verifyTimeout: '1s', verifyPoll: '100ms' } };
      const [a, b] = await Promise.all([
        serve({ kubeServer: sim.url, queueName, file }),
        serve({ kubeServer: sim.url, queueName, file }),
      ]);
      await command(a, 'diagnose sklearn-iris -n default', 'C0TWOREP');
      await slack.waitFor(() => proposalMessages(slack, 'C0TWOREP').length > 0, 60_000);
      const id = proposalIdOf(proposalMessages(slack, 'C0TWOREP')[0]!);
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          postSignedClick((i % 2 ? b : a).eventsUrl, SECRET, {
            actionId: 'remediation.approve',
            value: id,
            user: 'U0APPROVER',
            channel: 'C0TWOREP',
          }),
        ),
      );
      expect(statuses).toEqual(Array(10).fill(200));
      const patches = () => writes(sim.requests, { verb: 'patch', resource: 'inferenceservices' }).length;
      await until(() => patches() >= 1, 'the PATCH', 60_000);
      // every click has been handled (applied once, or refused as already decided) before counting
      await until(
        () => slack.callsTo('chat.postEphemeral').filter((c) => c.body.channel === 'C0TWOREP').length >= 9,
        'the nine refusals',
        60_000,
      );
      figure('two replicas, 10 clicks: PATCHes', patches());
      expect(patches()).toBe(1);
    } finally {
      await sim.close();
      await deleteRedisKeys(testRedisUrl(), `bull:${queueName}:*`);
    }
  });
});

describe('Slack failing', () => {
  it('429s with Retry-After, 500s and posts that land then fail: retried, no duplicate posts', async () => {
    const sim = await startSimulator({
      snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found')),
    });
    try {
      const bot = await serve({ kubeServer: sim.url });
      const channels = Array.from({ length: 6 }, (_, i) => `C0SLACKF${i}`);
      let n = 0;
      const off = slack.onCall((c) => {
        // every third post of these channels fails one way or another
        if (c.method !== 'chat.postMessage' || !channels.includes(String(c.body.channel))) return;
        n += 1;
        if (n % 9 === 1) slack.rateLimitNext(1, 1, 'chat.postMessage');
        else if (n % 9 === 4) slack.failPosts(1, 'after');
        else if (n % 9 === 7) slack.failPosts(1, n % 2 ? 'drop' : 'before');
      });
      slack.rateLimitNext(2, 1);
      try {
        for (const [i, c] of channels.entries())
          await command(bot, i % 2 ? 'diagnose sklearn-iris' : `diagnose gone-${i}`, c);
        await until(() => channels.every(answered), 'every diagnosis answered through the Slack failures', 120_000);
      } finally {
        off();
      }
      const dups = channels.reduce(
        (n2, c) => n2 + duplicatesIn(c) + ephemeralRepeatsIn(c) + Math.max(0, rootsIn(c).length - 1),
        0,
      );
      duplicatePosts += dups;
      figure('slack faults: 429s answered', slack.calls.filter((c) => c.status === 429).length);
      expect(dups).toBe(0);
    } finally {
      await sim.close();
    }
  });
});

describe('the Kubernetes API failing', () => {
  it.each([
    ['slow (3 s a request)', 'slow'],
    ['gone (the API server killed)', 'gone'],
    ['black-holed (SIGSTOP: connections accepted, no answer)', 'blackhole'],
  ] as const)('%s mid-diagnosis: a clear message in the thread, never silence', async (_what, mode) => {
    const sim = await startSimulatorChild(
      path.resolve('test/scenarios/storage-uri-not-found'),
      mode === 'slow' ? { latencyMs: 3000 } : {},
    );
    const jobTimeout = 8;
    try {
      const bot = await serve({ kubeServer: sim.url, file: { diagnosis: { jobTimeout: `${jobTimeout}s` } } });
      const channel = `C0KUBE${mode.toUpperCase()}`;
      if (mode === 'gone') await sim.stop();
      if (mode === 'blackhole') sim.child.kill('SIGSTOP');
      const t0 = Date.now();
      await command(bot, 'diagnose sklearn-iris', channel);
      await until(() => answered(channel), 'an answer in the thread', 120_000);
      const seconds = (Date.now() - t0) / 1000;
      const replies = slack.store.all().filter((m) => m.channel === channel && m.threadTs && !m.ephemeralTo);
      const text = replies.map((m) => m.text).join('\n');
      figure(`kubernetes ${mode}: answered in the thread after s`, seconds.toFixed(1));
      expect(replies.length).toBeGreaterThan(0);
      if (mode === 'blackhole') expect(text).toMatch(/DIAGNOSIS_TIMEOUT|CLUSTER_UNREACHABLE/);
      if (mode === 'gone') expect(text).toContain('CLUSTER_UNREACHABLE');
      expect(text).not.toContain(sim.url.replace('http://', ''));
    } finally {
      sim.child.kill('SIGCONT');
      await sim.stop();
    }
  });
});
