/**
 * API faults (part of the reliability suite): a real `serve` child whose Kubernetes API is
 * black-holed (a TCP listener that accepts and never answers) or refused (a closed port). Each
 * command kind — status, rollout, clusters, diagnose — is asked once per fault, and must show the
 * asker something within 3 s and end in a message naming the cause (refused / did not answer in
 * time / unreachable), whatever its deadline: with short deadlines (requests 2 s, jobs 8 s) for all
 * four, and with the shipped ones (requests 10 s, jobs 90 s) for status and rollout.
 * Prints `reliability: api <fault> <command> first visible ms`, `… answered s` and
 * `reliability: api faults unanswered` (0).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { rmSync } from 'node:fs';
import { startFakeSlackApi, type FakeSlackApi, type RecordedCall } from '../support/fake-slack-api.js';
import { ensureFreshDist } from '../support/fresh-dist.js';
import { freePort } from '../support/redis-server.js';
import { slashCommandBody } from '../support/slack-signing.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';
import { until } from '../support/until.js';
import { figure, postSigned, startServeChild, workDir, type ServeChild } from './serve-child.js';

const SECRET = `rel-api-faults-${randomUUID()}`;
const dir = workDir('api-faults');
/** Within this the asker sees something (a progress note, a root message, the answer). */
const FIRST_VISIBLE_MS = 3000;
/** The bot's deadlines, short so the suite is quick: every request 2 s, a diagnosis or status job 8 s. */
const REQUEST_TIMEOUT = '2s';
const JOB_TIMEOUT = '8s';
let slack: FakeSlackApi;
let unanswered = 0;

beforeAll(async () => {
  await ensureFreshDist();
  slack = await startFakeSlackApi();
}, 120_000);

afterAll(async () => {
  await slack?.close();
  rmSync(dir, { recursive: true, force: true });
  figure('api faults unanswered', unanswered);
});

/** An API server that accepts every connection and never answers a byte. */
async function blackHole(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: every connection refused. */
async function refused(): Promise<{ url: string; close(): Promise<void> }> {
  return { url: `http://127.0.0.1:${await freePort()}`, close: async () => undefined };
}

/** Everything the asker or the channel can see for one command: posts, ephemerals, response_url answers. */
const visibleIn = (channel: string) =>
  slack.calls.filter(
    (c: RecordedCall) =>
      c.status === 200 &&
      (c.method === 'response_url'
        ? String(c.responseId).startsWith(`${channel}-`)
        : ['chat.postMessage', 'chat.postEphemeral', 'chat.update'].includes(c.method) &&
          c.body.channel === channel &&
          c.response?.ok === true),
  );
const textOf = (c: RecordedCall) => [String(c.body.text ?? ''), JSON.stringify(c.body.blocks ?? '')].join('\n');

interface Case {
  command: string;
  text: string;
  /** The message that ends it, naming the cause. */
  final: Record<'blackhole' | 'refused', RegExp>;
}

const CASES: Case[] = [
  {
    command: 'status',
    text: 'status -n kserve-test',
    final: { blackhole: /did not answer in time/, refused: /refused the connection/ },
  },
  {
    command: 'rollout',
    text: 'rollout sklearn-iris -n kserve-test',
    final: { blackhole: /did not answer in time/, refused: /refused the connection/ },
  },
  {
    // a one-cluster bot answers from its config; the API's state does not hold it up
    command: 'clusters',
    text: 'clusters',
    final: { blackhole: /serves one cluster/, refused: /serves one cluster/ },
  },
  {
    // the root message becomes what happened: CLUSTER_UNREACHABLE (with the socket's reason) or DIAGNOSIS_TIMEOUT
    command: 'diagnose',
    text: 'diagnose sklearn-iris -n kserve-test',
    final: {
      blackhole: /CLUSTER_UNREACHABLE[\s\S]*did not answer|DIAGNOSIS_TIMEOUT/,
      refused: /CLUSTER_UNREACHABLE[\s\S]*ECONNREFUSED/,
    },
  },
];

/** The bot's own deadlines (requestTimeout 10 s, jobTimeout 90 s): only the commands that read the cluster. */
const SHIPPED = CASES.filter((c) => c.command === 'status' || c.command === 'rollout');

describe.each([
  ['black-holed (accepts, never answers)', 'blackhole', blackHole, CASES, true],
  ['refused (a closed port)', 'refused', refused, CASES, true],
  ['black-holed, with the shipped deadlines', 'blackhole', blackHole, SHIPPED, false],
] as const)('the Kubernetes API %s', (_what, fault, start, cases, short) => {
  let api: { url: string; close(): Promise<void> };
  let bot: ServeChild;
  beforeAll(async () => {
    api = await start();
    bot = await startServeChild({
      dir,
      secret: SECRET,
      slackApiUrl: slack.apiUrl,
      redisUrl: testRedisUrl(),
      kubeServer: api.url,
      file: {
        approvers: ['U0APPROVER'],
        ...(short ? { kubernetes: { requestTimeout: REQUEST_TIMEOUT }, diagnosis: { jobTimeout: JOB_TIMEOUT } } : {}),
      },
    });
  }, 120_000);
  afterAll(async () => {
    await bot?.stop(3000).catch(() => undefined);
    await api?.close();
    if (bot) await deleteRedisKeys(testRedisUrl(), `bull:${bot.queueName}:*`);
  });

  it.each(cases as Case[])(
    '$command: something visible within 3 s, then a message naming the cause',
    async ({ command, text, final }) => {
      const channel = `C0API${fault.toUpperCase()}${command.toUpperCase()}${randomUUID().slice(0, 4).toUpperCase()}`;
      const label = `${short ? fault : `${fault} (shipped deadlines)`} ${command}`;
      const t0 = Date.now();
      const ack = await postSigned(
        bot.eventsUrl,
        SECRET,
        slashCommandBody({
          text,
          channel_id: channel,
          user_id: 'U0ALICE',
          response_url: slack.responseUrl(`${channel}-${randomUUID().slice(0, 6)}`),
        }),
      );
      expect(ack.status).toBe(200);
      await until(() => visibleIn(channel).length > 0, `anything visible for ${command}`, 30_000).catch(
        () => undefined,
      );
      const first = visibleIn(channel)[0];
      const firstMs = first ? first.at - t0 : Number.POSITIVE_INFINITY;
      // a progress note ("reading the cluster…", a root still "Diagnosing…") never counts as the end
      const ends = (c: RecordedCall) =>
        !/^(Diagnosing|⏳)/.test(String(c.body.text ?? '')) && final[fault].test(textOf(c));
      await until(() => visibleIn(channel).some(ends), `the message that ends ${command}`, 90_000).catch(
        () => undefined,
      );
      const end = visibleIn(channel).find(ends);
      if (!end) {
        unanswered += 1;
        console.log(
          `api-faults: ${label} got`,
          JSON.stringify(visibleIn(channel).map((c) => [c.method, c.at - t0, textOf(c).slice(0, 200)])),
        );
      }
      figure(`api ${label}: first visible ms`, first ? firstMs : 'never');
      figure(`api ${label}: answered after s`, end ? ((end.at - t0) / 1000).toFixed(1) : 'never');
      expect(firstMs).toBeLessThanOrEqual(FIRST_VISIBLE_MS);
      expect(end).toBeDefined();
      // the API server's address stays out of Slack
      expect(visibleIn(channel).map(textOf).join('\n')).not.toContain(api.url.replace('http://', ''));
    },
    120_000,
  );
});
