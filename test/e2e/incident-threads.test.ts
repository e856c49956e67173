/**
 * Automatic incidents end to end: the real bot with its Lease-elected watcher, incident jobs on real
 * Redis, the fake Slack, the simulator. An InferenceService flipped to Ready=False through the API
 * posts exactly one incident after unreadyAfter (300 ms here), with the diagnosis in its thread;
 * flipped back, the root message says "recovered after …" and so does the thread.
 */
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { postSignedCommand, slackSignature } from '../support/slack-signing.js';
import { until } from '../support/until.js';
import {
  ALERTS,
  SIGNING_SECRET,
  sees,
  settled,
  sleep,
  startIncidentHarness,
  type IncidentHarness,
} from './incident-harness.js';
import { textOf } from './slack-harness.js';

let slack: FakeSlackApi;
let h: IncidentHarness | null = null;
beforeAll(async () => {
  slack = await startFakeSlackApi();
});
afterAll(async () => {
  await slack.close();
});
beforeEach(() => slack.reset());
afterEach(async () => {
  await h?.close();
  h = null;
});

it('posts one incident after unreadyAfter (not before), the diagnosis in its thread, and updates it when Ready again', async () => {
  h = await startIncidentHarness(slack);
  const bot = await h.startServe();
  await bot.incidents.watcher!.leading();
  const flipped = Date.now();
  await h.setReady('iris', false);
  await until(() => h!.roots().length === 1, 'the incident');
  const root = h.roots()[0]!;
  expect(root.at - flipped).toBeGreaterThanOrEqual(300);
  expect(root.body.text).toMatch(/^🔴 default\/iris has not been ready for \S+: [A-Z_]+( — .+)?$/);
  const rootTs = root.response!.ts as string;
  await until(() => h!.threadOf(rootTs).length >= 1, 'the diagnosis in the thread');
  const first = h.threadOf(rootTs)[0]!;
  // the thread looks like /isvc diagnose's: the first reply names the root cause
  expect(textOf(first.body)).toMatch(/Root cause: `[A-Z_]+`/);
  await settled(bot);
  expect(h.roots()).toHaveLength(1);

  await h.setReady('iris', true);
  await until(() => h!.updatesOf(rootTs).some((u) => /recovered after/.test(String(u.body.text))), 'the recovery');
  expect(h.updatesOf(rootTs).at(-1)!.body.text).toMatch(/^✅ default\/iris recovered after \d+s \(was [A-Z_]+\)$/);
  expect(
    h.threadOf(rootTs).some((c) => /default\/iris is Ready again \(recovered after/.test(String(c.body.text))),
  ).toBe(true);
  expect(h.roots()).toHaveLength(1);
  // the incident jobs are counted on /metrics (once the worker reports the recover job done)
  const metrics = async () => (await fetch(`${bot.metricsUrl}/metrics`)).text();
  await until(
    async () => /isvc_doctor_incident_jobs_total\{kind="recover",outcome="done"\} 1/.test(await metrics()),
    'the recover job on /metrics',
  );
  expect(await metrics()).toMatch(/isvc_doctor_incident_jobs_total\{kind="open",outcome="done"\} 1/);
});

it('posts nothing for a service that flaps back to Ready within unreadyAfter', async () => {
  h = await startIncidentHarness(slack, { file: { alerts: { channel: ALERTS, unreadyAfter: '1500ms' } } });
  const bot = await h.startServe();
  await bot.incidents.watcher!.leading();
  await h.setReady('iris', false);
  await until(
    () => sees('default/iris', false)(bot.incidents.watcher!.current()!.watcher),
    'the watcher seeing it unready',
  );
  await h.setReady('iris', true);
  await settled(bot, sees('default/iris', true));
  expect(h.roots()).toHaveLength(0);
});

/** A first bot posts an incident for iris (root and diagnosis), then stops; returns the root's ts. */
async function incidentOfAStoppedBot(harness: IncidentHarness): Promise<string> {
  const first = await harness.startServe('all', 'first');
  await first.incidents.watcher!.leading();
  await harness.setReady('iris', false);
  await until(() => harness.roots().length === 1, 'the incident');
  const rootTs = harness.roots()[0]!.response!.ts as string;
  await until(() => harness.threadOf(rootTs).length >= 1, 'the diagnosis');
  await first.close();
  harness.bots.splice(harness.bots.indexOf(first), 1);
  return rootTs;
}

it('does not post again after a bot restart while the incident is open, and the new bot closes it', async () => {
  h = await startIncidentHarness(slack);
  const rootTs = await incidentOfAStoppedBot(h);
  const second = await h.startServe('all', 'second');
  await second.incidents.watcher!.leading();
  await settled(second);
  expect(h.roots()).toHaveLength(1);
  await h.setReady('iris', true);
  await until(
    () => h!.updatesOf(rootTs).some((u) => /recovered after/.test(String(u.body.text))),
    'the recovery by the new bot',
  );
  expect(h.roots()).toHaveLength(1);
});

it('closes an incident whose service recovered while no bot ran', async () => {
  h = await startIncidentHarness(slack);
  const rootTs = await incidentOfAStoppedBot(h);
  await h.setReady('iris', true);
  const second = await h.startServe('all', 'second');
  await second.incidents.watcher!.leading();
  await until(
    () => h!.updatesOf(rootTs).some((u) => /recovered after/.test(String(u.body.text))),
    'the recovery at start',
  );
  expect(h.roots()).toHaveLength(1);
});

it('two bot processes post one incident; when the leader stops, the other takes over and closes it', async () => {
  h = await startIncidentHarness(slack);
  const a = await h.startServe('all', 'replica-a');
  const b = await h.startServe('all', 'replica-b');
  await until(() => Boolean(a.incidents.watcher!.isLeader() || b.incidents.watcher!.isLeader()), 'a leader');
  const [leader, other] = a.incidents.watcher!.isLeader() ? [a, b] : [b, a];
  await leader.incidents.watcher!.leading();
  expect(other.incidents.watcher!.isLeader()).toBe(false);
  // each replica says on /metrics whether it leads
  const leads = async (bot: typeof a) =>
    /^isvc_doctor_watcher_leader 1$/m.test(await (await fetch(`${bot.metricsUrl}/metrics`)).text());
  expect([await leads(leader), await leads(other)]).toEqual([true, false]);
  await h.setReady('iris', false);
  await until(() => h!.roots().length === 1, 'the incident');
  const rootTs = h.roots()[0]!.response!.ts as string;
  await settled(leader);
  expect(h.roots()).toHaveLength(1);
  await leader.close();
  h.bots.splice(h.bots.indexOf(leader), 1);
  await other.incidents.watcher!.leading();
  await h.setReady('iris', true);
  await until(
    () => h!.updatesOf(rootTs).some((u) => /recovered after/.test(String(u.body.text))),
    'the recovery by the new leader',
  );
  expect(h.roots()).toHaveLength(1);
});

it('groups ten services failing with the same root cause into one incident listing them all', async () => {
  const names = Array.from({ length: 10 }, (_, i) => `model-${i}`);
  h = await startIncidentHarness(slack, { names });
  const bot = await h.startServe();
  await bot.incidents.watcher!.leading();
  await Promise.all(names.map((n) => h!.setReady(n, false)));
  await until(() => h!.roots().length === 1, 'the incident');
  const rootTs = h.roots()[0]!.response!.ts as string;
  await until(
    () => h!.updatesOf(rootTs).some((u) => /^🔴 10 InferenceServices not ready/.test(String(u.body.text))),
    'the grouped root message',
  );
  const listed = String(h.updatesOf(rootTs).at(-1)!.body.text);
  for (const n of names) expect(listed).toContain(`default/${n}`);
  await settled(bot);
  expect(h.roots()).toHaveLength(1);
  const notes = h
    .threadOf(rootTs)
    .filter((c) => String(c.body.text).startsWith('Also not ready with the same root cause'));
  expect(notes.length).toBeGreaterThanOrEqual(1);
  // every one back: resolved
  await Promise.all(names.map((n) => h!.setReady(n, true)));
  await until(
    () => h!.updatesOf(rootTs).some((u) => /^✅ 10 InferenceServices recovered after/.test(String(u.body.text))),
    'the resolution',
  );
  expect(
    h
      .threadOf(rootTs)
      .some((c) => /^✅ Incident resolved: all 10 InferenceServices are Ready again/.test(String(c.body.text))),
  ).toBe(true);
});

it('posts nothing for a service muted with /isvc mute, and again after /isvc unmute', async () => {
  h = await startIncidentHarness(slack, { names: ['iris', 'noisy'] });
  const bot = await h.startServe();
  await bot.incidents.watcher!.leading();
  const events = `${bot.url}/slack/events`;
  const res = await postSignedCommand(events, SIGNING_SECRET, {
    text: 'mute noisy 1h -n default',
    channel_id: 'C0OPS',
    user_id: 'U0OPS',
    response_url: slack.responseUrl('mute'),
  });
  expect(res.status).toBe(200);
  await slack.waitFor((calls) => calls.some((c) => c.method === 'response_url' && c.responseId === 'mute'));
  const answer = slack.callsTo('response_url').find((c) => c.responseId === 'mute')!;
  expect(answer.body.response_type).toBe('ephemeral');
  expect(answer.body.text).toBe('🔕 Muted default/noisy for 1h: no automatic incident posts for it.');
  expect(await bot.incidents.mutes.get('default/noisy')).toMatchObject({ by: 'U0OPS' });
  const mutedAt = Date.now();
  await h.setReady('noisy', false, 'Noisy');
  await settled(bot, sees('default/noisy', false, mutedAt));
  expect(h.roots()).toHaveLength(0);
  // an unmuted one still posts
  await h.setReady('iris', false);
  await until(() => h!.roots().length === 1, 'the unmuted incident');
  expect(String(h.roots()[0]!.body.text)).toContain('default/iris');
  // unmute: its next change of status makes it part of an incident again
  await postSignedCommand(events, SIGNING_SECRET, { text: 'unmute noisy', response_url: slack.responseUrl('unmute') });
  await slack.waitFor((calls) => calls.some((c) => c.method === 'response_url' && c.responseId === 'unmute'));
  expect(slack.callsTo('response_url').find((c) => c.responseId === 'unmute')!.body.text).toBe(
    '🔔 Unmuted default/noisy: automatic incident posts are back on.',
  );
  await h.setReady('noisy', true);
  await h.setReady('noisy', false);
  // same root cause as iris' incident, inside the group window: it joins that one
  const irisTs = h.roots()[0]!.response!.ts as string;
  await until(
    () => h!.updatesOf(irisTs).some((u) => /^🔴 2 InferenceServices not ready/.test(String(u.body.text))),
    'noisy joining after unmute',
  );
  expect(h.roots()).toHaveLength(1);
});

it('keeps watching across a dropped watch (endWatches) and a 410 Gone', async () => {
  h = await startIncidentHarness(slack);
  const bot = await h.startServe();
  await bot.incidents.watcher!.leading();
  h.sim.endWatches();
  await sleep(100);
  await h.setReady('iris', false);
  await until(() => h!.roots().length === 1, 'the incident after the reconnect');
  const rootTs = h.roots()[0]!.response!.ts as string;
  const lists = () =>
    h!.sim.requests.filter(
      (r) => r.verb === 'list' && r.resource === 'inferenceservices' && r.group === 'serving.kserve.io',
    ).length;
  const listsBefore = lists();
  // The stream ends; before the watcher reconnects the service recovers and the history is compacted:
  // its resume gets 410 Gone and it re-lists.
  h.sim.endWatches();
  const current = h.sim.store.get('serving.kserve.io/v1beta1', 'InferenceService', 'default', 'iris')!;
  h.sim.store.upsert({
    ...current,
    status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString() }] },
  });
  h.sim.store.compact();
  await until(
    () => h!.updatesOf(rootTs).some((u) => /recovered after/.test(String(u.body.text))),
    'the recovery after a 410',
  );
  expect(lists()).toBeGreaterThan(listsBefore);
  expect(h.roots()).toHaveLength(1);
});

/** An app_mention event as Slack's Events API POSTs it (JSON, signed over the raw body). */
async function postSignedMention(
  url: string,
  event: { text: string; user: string; channel: string; thread_ts?: string },
): Promise<number> {
  const ts = `${Math.floor(Date.now() / 1000)}.${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
  const body = JSON.stringify({
    token: 'x',
    team_id: 'T0TEST',
    api_app_id: 'A0APP',
    type: 'event_callback',
    event_id: `Ev${ts.replace('.', '')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: 'T0TEST', user_id: 'U0BOT', is_bot: true }],
    event: { type: 'app_mention', ts, event_ts: ts, ...event },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
    },
    body,
  });
  await res.text();
  return res.status;
}

it('mutes and unmutes through an app mention (@isvc-doctor mute NAME 1h), answered ephemerally in the thread', async () => {
  h = await startIncidentHarness(slack, { names: ['iris', 'noisy'] });
  const bot = await h.startServe();
  await bot.incidents.watcher!.leading();
  const events = `${bot.url}/slack/events`;
  const ephemeralTo = (user: string) => slack.callsTo('chat.postEphemeral').filter((c) => c.body.user === user);
  expect(await postSignedMention(events, { text: '<@U0BOT> mute noisy 1h', user: 'U0OPS', channel: 'C0OPS' })).toBe(
    200,
  );
  await slack.waitFor(() => ephemeralTo('U0OPS').length === 1);
  expect(ephemeralTo('U0OPS')[0]!.body).toMatchObject({
    channel: 'C0OPS',
    text: '🔕 Muted default/noisy for 1h: no automatic incident posts for it.',
  });
  expect(await bot.incidents.mutes.get('default/noisy')).toMatchObject({ by: 'U0OPS' });
  // no diagnosis was queued for "mute": nothing posted in the channel
  expect(slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0OPS')).toHaveLength(0);
  const mutedAt = Date.now();
  await h.setReady('noisy', false, 'Noisy');
  await settled(bot, sees('default/noisy', false, mutedAt));
  expect(h.roots()).toHaveLength(0);

  // a bad duration gets the usage, ephemerally, and mutes nothing new
  await postSignedMention(events, { text: '<@U0BOT> mute iris soon', user: 'U0OPS', channel: 'C0OPS' });
  await slack.waitFor(() => ephemeralTo('U0OPS').length === 2);
  expect(String(ephemeralTo('U0OPS')[1]!.body.text)).toContain('"soon" is not a duration');
  expect(await bot.incidents.mutes.get('default/iris')).toBeNull();

  // unmute from inside a thread: the answer goes to that thread; the next change posts again
  await postSignedMention(events, {
    text: '<@U0BOT> unmute default/noisy',
    user: 'U0OPS',
    channel: 'C0OPS',
    thread_ts: '1700.000100',
  });
  await slack.waitFor(() => ephemeralTo('U0OPS').length === 3);
  expect(ephemeralTo('U0OPS')[2]!.body).toMatchObject({
    thread_ts: '1700.000100',
    text: '🔔 Unmuted default/noisy: automatic incident posts are back on.',
  });
  expect(await bot.incidents.mutes.get('default/noisy')).toBeNull();
  await h.setReady('noisy', true);
  await h.setReady('noisy', false, 'Noisy');
  await until(() => h!.roots().length === 1, 'the incident after the unmute');
  expect(String(h.roots()[0]!.body.text)).toContain('default/noisy');
});

/** A predictor pod of `isvc` whose storage-initializer fails because the model is not at its storageUri. */
function failingStoragePod(isvc: string): Record<string, unknown> {
  const message = [
    `INFO:root:Copying contents of gs://models/${isvc} to local`,
    'Traceback (most recent call last):',
    `RuntimeError: Failed to fetch model. No model found in gs://models/${isvc}.`,
  ].join('\n');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${isvc}-predictor-00001-deployment-7d9c6b5f8b-q4wzl`,
      namespace: 'default',
      uid: '5f1c2b9e-0000-4000-8000-00000000c0de',
      labels: {
        'serving.kserve.io/inferenceservice': isvc,
        component: 'predictor',
        'serving.knative.dev/revision': `${isvc}-predictor-00001`,
      },
    },
    spec: {
      initContainers: [
        {
          name: 'storage-initializer',
          image: 'kserve/storage-initializer:v0.11.0',
          args: [`gs://models/${isvc}`, '/mnt/models'],
        },
      ],
      containers: [{ name: 'kserve-container', image: 'kserve/sklearnserver:v0.11.0' }],
    },
    status: {
      phase: 'Pending',
      initContainerStatuses: [
        {
          name: 'storage-initializer',
          ready: false,
          restartCount: 3,
          image: 'kserve/storage-initializer:v0.11.0',
          imageID: '',
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: 'back-off 40s restarting failed container=storage-initializer',
            },
          },
          lastState: { terminated: { exitCode: 1, reason: 'Error', message } },
        },
      ],
      containerStatuses: [
        {
          name: 'kserve-container',
          ready: false,
          restartCount: 0,
          image: 'kserve/sklearnserver:v0.11.0',
          imageID: '',
          state: { waiting: { reason: 'PodInitializing' } },
        },
      ],
    },
  };
}

it('adds a changed root cause to the open incident thread: one "root cause changed" note and the new diagnosis, no new top-level post', async () => {
  h = await startIncidentHarness(slack);
  const bot = await h.startServe();
  await bot.incidents.watcher!.leading();
  await h.setReady('iris', false);
  await until(() => h!.roots().length === 1, 'the incident');
  const root = h.roots()[0]!;
  // Ready=False (RevisionMissing) with no Knative objects to say more: the InferenceService's own RevisionMissing
  expect(root.body.text).toMatch(/: REVISION_MISSING( — .+)?$/);
  const rootTs = root.response!.ts as string;
  await until(() => h!.threadOf(rootTs).length >= 1, 'the first diagnosis');
  await settled(bot);
  const threadBefore = h.threadOf(rootTs).length;
  const changedNotes = () =>
    h!.threadOf(rootTs).filter((c) => String(c.body.text).startsWith('🔄 Root cause of default/iris changed'));

  // the cause changes under the incident: the predictor's storage-initializer now fails to find the model
  h.sim.store.upsert(failingStoragePod('iris') as any);
  // the same status again is no change: nothing is added
  const againAt = Date.now();
  await h.setReady('iris', false);
  await settled(bot, sees('default/iris', false, againAt));
  expect(changedNotes()).toHaveLength(0);
  // a new Ready reason is: the watcher sees the change, the worker diagnoses again
  await h.setReady('iris', false, 'RevisionFailed');
  await until(() => changedNotes().length === 1, 'the root-cause-changed note');
  expect(changedNotes()[0]!.body.text).toBe(
    '🔄 Root cause of default/iris changed: REVISION_MISSING → STORAGE_URI_NOT_FOUND',
  );
  // the new diagnosis follows in the same thread
  await until(
    () =>
      h!
        .threadOf(rootTs)
        .slice(threadBefore)
        .some((c) => /Root cause: `STORAGE_URI_NOT_FOUND`/.test(textOf(c.body))),
    'the new diagnosis in the thread',
  );
  // one note only once everything settled, and no new top-level post
  await settled(bot);
  expect(changedNotes()).toHaveLength(1);
  expect(h.roots()).toHaveLength(1);
  // the root message names the new cause (a lone member's incident is updated in place)
  expect(h.updatesOf(rootTs).some((u) => /STORAGE_URI_NOT_FOUND/.test(String(u.body.text)))).toBe(true);
});
