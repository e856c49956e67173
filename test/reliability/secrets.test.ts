/**
 * Secrets (part of the reliability suite): the credential corpus (test/fixtures/secrets, ≥ 30 formats)
 * written into the log, termination message, modelStatus copy, a revision condition and a Warning
 * event of a failing storage-initializer, then looked for in everything that leaves the process:
 * the CLI's text / JSON / YAML, the messages a real `serve` child posted to the fake Slack Web API
 * through the whole bot flow (signed slash command → queue → worker → diagnosis → posts), the
 * child's own log lines, the remediation audit stream and the Events the bot wrote.
 * Prints `reliability: secrets leaked L of N` (N: format × place placements, each checked on every
 * surface) and requires 0.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import { main } from '../../src/cli/main.js';
import { startBotProcess, type BotProcess } from '../../src/playground/bot-process.js';
import { writeKubeconfigFile } from '../../src/simulator/kubeconfig-file.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot, type Snapshot } from '../../src/snapshot/load-snapshot.js';
import { containsSecret, measureLeaks, PLACES, type LeakResult } from '../fixtures/secrets/measure-leaks.mjs';
import { buildSample, SECRET_SAMPLES, type BuiltSample } from '../fixtures/secrets/secret-corpus.mjs';
import {
  CONTAINER,
  placeIn,
  POD,
  storageInitializerOutput,
  TARGET,
  warningEvent,
  writeSecretsSnapshot,
} from '../fixtures/secrets/secrets-snapshot.mjs';
import { postSignedClick, proposalIdOf } from '../e2e/remediation-harness.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { ensureFreshDist } from '../support/fresh-dist.js';
import { runCliMain } from '../support/run-cli.mjs';
import { postSignedCommand } from '../support/slack-signing.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';
import { until } from '../support/until.js';

const SIGNING_SECRET = `reliability-secrets-${randomUUID()}`;
const BOT_TOKEN = 'xoxb-fake_reliability_secrets';
const QUEUE = `rel-secrets-${randomUUID().slice(0, 8)}`;
const APPROVER = 'U0SECAPPROVER';

const dir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-rel-secrets-'));
let slack: FakeSlackApi;
let sim: RunningSimulator;
let snapshot: Snapshot;
let bot: BotProcess;
const botLog: string[] = [];

beforeAll(async () => {
  await ensureFreshDist();
  slack = await startFakeSlackApi();
  // the simulator serves the base scenario; each sample is then written into its objects, logs and access rules
  const first = path.join(dir, 'first');
  const sample = buildSample(SECRET_SAMPLES[0]!, 1);
  writeSecretsSnapshot(
    first,
    { log: sample, podMessage: sample, modelStatus: sample, condition: sample, event: sample },
    { logsReadable: true },
  );
  snapshot = await loadSnapshot(first);
  sim = await startSimulator({ snapshot });
  const kubeconfig = path.join(dir, 'kubeconfig');
  await writeKubeconfigFile(kubeconfig, sim.url);
  const configFile = path.join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    stringify({
      namespaces: [TARGET.namespace],
      approvers: [APPROVER],
      queue: { name: QUEUE, concurrency: 2, attempts: 2, backoffMs: 50 },
    }),
  );
  bot = await startBotProcess({
    configFile,
    env: {
      SLACK_API_URL: slack.apiUrl,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      REDIS_URL: testRedisUrl(),
      KUBECONFIG: kubeconfig,
      PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: 'debug',
    },
    onLog: (line) => void botLog.push(JSON.stringify(line)),
    onExit: (why) => void botLog.push(`exit: ${why}`),
  });
}, 180_000);

afterAll(async () => {
  await bot?.stop();
  await sim?.close();
  await slack?.close();
  await deleteRedisKeys(testRedisUrl(), `bull:${QUEUE}*`);
  rmSync(dir, { recursive: true, force: true });
});

/** Writes one placement per place into the running simulator: objects, the Warning event, the logs, and whether logs may be read. */
function serve(placements: Record<string, BuiltSample>, logsReadable: boolean): void {
  for (const [apiVersion, kind, namespace, name] of [
    ['serving.kserve.io/v1beta1', 'InferenceService', TARGET.namespace, TARGET.name],
    ['serving.knative.dev/v1', 'Revision', TARGET.namespace, 'credit-xgb-predictor-00001'],
    ['v1', 'Pod', TARGET.namespace, POD],
  ] as const) {
    const current = sim.store.get(apiVersion, kind, namespace, name);
    if (!current) throw new Error(`the base scenario has no ${kind} ${namespace}/${name}`);
    const copy = structuredClone(current) as Record<string, any>;
    placeIn(copy, placements);
    sim.store.upsert(copy);
  }
  sim.store.upsert(warningEvent(placements.event!.lines.join('\n')));
  const output = storageInitializerOutput(placements.log!.lines);
  for (const key of [`${TARGET.namespace}/${POD}/${CONTAINER}`, `${TARGET.namespace}/${POD}/${CONTAINER}#previous`])
    snapshot.logs.set(key, output);
  snapshot.deny.length = 0;
  if (!logsReadable) snapshot.deny.push({ verb: 'get', resource: 'pods/log', namespace: TARGET.namespace });
}

const verdictIn = (channel: string) => (calls: FakeSlackApi['calls']) =>
  calls.some((c) => c.method === 'chat.update' && c.body.channel === channel && /^[❌✅❔]/u.test(String(c.body.text)));

/** One diagnosis through the bot: a signed slash command, then every Slack call of its channel up to the verdict. */
async function diagnoseInSlack(channel: string): Promise<void> {
  const res = await postSignedCommand(`${bot.url}/slack/events`, SIGNING_SECRET, {
    text: `diagnose ${TARGET.name} -n ${TARGET.namespace}`,
    channel_id: channel,
    response_url: slack.responseUrl(channel),
  });
  expect(res.status).toBe(200);
  await slack.waitFor(verdictIn(channel), 60_000);
}

async function auditAndEvents(): Promise<{ audit: string[]; events: string[] }> {
  const redis = new Redis(testRedisUrl());
  try {
    const keys = (await redis.keys(`bull:${QUEUE}*`)).filter((k) => /audit/.test(k));
    const audit: string[] = [];
    for (const key of keys)
      for (const [, fields] of await redis.xrange(key, '-', '+')) audit.push(JSON.stringify(fields));
    const events = sim.store
      .list('v1', 'Event')
      .filter((e) => (e as { source?: { component?: string } }).source?.component === 'isvc-doctor')
      .map((e) => JSON.stringify(e));
    return { audit, events };
  } finally {
    redis.disconnect();
  }
}

describe('secrets: 0 leaked across CLI, Slack, bot logs, audit and Events', () => {
  it('leaks none of the corpus on any surface', async () => {
    expect(SECRET_SAMPLES.length).toBeGreaterThanOrEqual(30);
    const cli: LeakResult[] = await measureLeaks({
      runCli: (args) => runCliMain(main, args),
      dir: path.join(dir, 'cli'),
    });

    const slackLeaks: string[] = [];
    let shownInSlack = 0;
    let slackCalls = 0;
    const all: Array<{ sample: string; place: string; secrets: string[] }> = [];
    for (const [index, sample] of SECRET_SAMPLES.entries()) {
      const placements = Object.fromEntries(
        Object.keys(PLACES).map((place, k) => [place, buildSample(sample, 50_000 + (k + 1) * 1000 + index)]),
      );
      for (const [place, p] of Object.entries(placements)) all.push({ sample: sample.name, place, secrets: p.secrets });
      slack.reset();
      for (const logsReadable of [true, false]) {
        serve(placements, logsReadable);
        await diagnoseInSlack(`C${index}${logsReadable ? 'L' : 'D'}`);
      }
      // every call the child made (posts, updates, ephemeral answers, response_url answers)
      const posted = slack.calls.map((c) => JSON.stringify(c.body)).join('\n');
      slackCalls += slack.calls.length;
      for (const [place, p] of Object.entries(placements)) {
        if (posted.includes(p.anchor)) shownInSlack++;
        if (p.secrets.some((s) => containsSecret(posted, s))) slackLeaks.push(`${sample.name} in ${place}`);
      }
    }

    // an approved remediation, so that the bot writes audit entries and an Event on the service (with the last sample in place)
    const offer = slack
      .callsTo('chat.postMessage')
      .find((c) => JSON.stringify(c.body.blocks ?? []).includes('remediation.approve'));
    expect(offer).toBeDefined();
    const channel = String(offer!.body.channel);
    expect(
      await postSignedClick(`${bot.url}/slack/events`, SIGNING_SECRET, {
        actionId: 'remediation.approve',
        value: proposalIdOf(offer!),
        user: APPROVER,
        channel,
      }),
    ).toBe(200);
    await until(async () => (await auditAndEvents()).events.length > 0, 'an Event written by the bot', 60_000);

    const logText = botLog.join('\n');
    const { audit, events } = await auditAndEvents();
    const auditText = audit.join('\n');
    const eventText = events.join('\n');
    const leakedIn = (text: string) =>
      all.filter((a) => a.secrets.some((s) => containsSecret(text, s))).map((a) => `${a.sample} in ${a.place}`);
    const logLeaks = leakedIn(logText);
    const auditLeaks = leakedIn(auditText);
    const eventLeaks = leakedIn(eventText);
    const cliLeaks = cli.filter((r) => r.leaked.length > 0).map((r) => `${r.sample} in ${r.place}`);
    const leaked = new Set([...cliLeaks, ...slackLeaks, ...logLeaks, ...auditLeaks, ...eventLeaks]);

    const n = all.length;
    process.stdout.write(
      [
        `reliability: secrets leaked ${leaked.size} of ${n} (${SECRET_SAMPLES.length} formats x ${Object.keys(PLACES).length} places; CLI text/JSON/YAML, Slack, bot logs, audit, Events)`,
        `reliability: secrets leaked in CLI ${cliLeaks.length} of ${cli.length} (shown ${cli.filter((r) => r.shown).length})`,
        `reliability: secrets leaked in Slack ${slackLeaks.length} of ${n} (shown ${shownInSlack}; ${slackCalls} Web API calls from the serve child)`,
        `reliability: secrets leaked in bot logs ${logLeaks.length} of ${n} (${botLog.length} log lines)`,
        `reliability: secrets leaked in audit ${auditLeaks.length} of ${n} (${audit.length} entries)`,
        `reliability: secrets leaked in Events ${eventLeaks.length} of ${n} (${events.length} written by the bot)`,
        '',
      ].join('\n'),
    );
    expect([...leaked]).toEqual([]);
    // the samples were really shown: every place in the CLI, and most in Slack (its messages show fewer lines)
    expect(cli.filter((r) => !r.shown).map((r) => `${r.sample} in ${r.place}`)).toEqual([]);
    expect(shownInSlack).toBeGreaterThanOrEqual(SECRET_SAMPLES.length);
    expect(botLog.length).toBeGreaterThan(0);
    expect(events.length).toBeGreaterThan(0);
    expect(audit.length).toBeGreaterThan(0);
  }, 900_000);
});
