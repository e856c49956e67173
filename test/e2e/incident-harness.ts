/**
 * Harness for the automatic-incident end-to-end tests: the real bot (startServe, role all or watcher /
 * worker) on the harness Redis, the fake Slack Web API, and the simulator serving InferenceServices
 * built in memory, whose Ready condition the tests flip through PATCH on the status subresource.
 */
import { randomUUID } from 'node:crypto';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { ServeRole } from '../../src/app/roles.js';
import { startServe, type RunningServe } from '../../src/app/serve.js';
import { buildConfig, type AppConfig } from '../../src/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { kubeConfigForServer, makeKubeClients } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import type { FakeSlackApi, RecordedCall } from '../support/fake-slack-api.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';
import { until } from '../support/until.js';

export const ALERTS = 'C0ALERTS';
export const SIGNING_SECRET = 'incident-signing-secret';

export function isvcObject(name: string, namespace = 'default'): Record<string, unknown> {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, namespace },
    spec: { predictor: { sklearn: { storageUri: `gs://models/${name}` } } },
    status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] },
  };
}

export interface IncidentHarness {
  sim: RunningSimulator;
  config: AppConfig;
  prefix: string;
  bots: RunningServe[];
  startServe(role?: ServeRole, identity?: string): Promise<RunningServe>;
  /** PATCH …/inferenceservices/NAME/status with Ready=True or False (lastTransitionTime now). */
  setReady(name: string, ready: boolean, reason?: string, namespace?: string): Promise<void>;
  /** Top-level posts in the alerts channel. */
  roots(): RecordedCall[];
  threadOf(rootTs: string): RecordedCall[];
  updatesOf(rootTs: string): RecordedCall[];
  close(): Promise<void>;
}

export async function startIncidentHarness(
  slack: FakeSlackApi,
  options: { names?: string[]; file?: Record<string, unknown> } = {},
): Promise<IncidentHarness> {
  const redisUrl = testRedisUrl();
  const objects = (options.names ?? ['iris']).map((n) => isvcObject(n));
  const sim = await startSimulator({ snapshot: { dir: '/nonexistent', objects, logs: new Map(), deny: [] } });
  const prefix = `inc-${randomUUID().slice(0, 8)}`;
  const config = buildConfig(
    {
      namespaces: ['default'],
      alerts: { channel: ALERTS, unreadyAfter: '300ms' },
      leaderElection: { leaseName: `watcher-${prefix}`, leaseDuration: '1s' },
      queue: { concurrency: 4, backoffMs: 50, attempts: 3 },
      ...options.file,
    },
    {
      SLACK_BOT_TOKEN: 'xoxb-incident',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redisUrl,
      PORT: '0',
      METRICS_PORT: '0',
    },
  );
  const kubeConfig = kubeConfigForServer(sim.url);
  const kube = makeKubeClients(kubeConfig);
  const bots: RunningServe[] = [];
  const inChannel = () => slack.callsTo('chat.postMessage').filter((c) => c.body.channel === ALERTS);
  return {
    sim,
    config,
    prefix,
    bots,
    startServe: async (role = 'all', identity) => {
      const bot = await startServe({
        config,
        role,
        kubeConfig,
        logger: silentLogger,
        queuePrefix: prefix,
        incidents: { refreshDelayMs: 200, ...(identity ? { identity } : {}) },
      });
      bots.push(bot);
      return bot;
    },
    setReady: async (name, ready, reason = 'RevisionMissing', namespace = 'default') => {
      const condition = {
        type: 'Ready',
        status: ready ? 'True' : 'False',
        lastTransitionTime: new Date().toISOString(),
        ...(ready ? {} : { reason, message: `${reason} for ${name}` }),
      };
      await kube.custom.patchNamespacedCustomObjectStatus(
        {
          group: 'serving.kserve.io',
          version: 'v1beta1',
          namespace,
          plural: 'inferenceservices',
          name,
          body: { status: { conditions: [condition] } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    },
    roots: () => inChannel().filter((c) => !c.body.thread_ts),
    threadOf: (rootTs) => inChannel().filter((c) => c.body.thread_ts === rootTs),
    updatesOf: (rootTs) =>
      slack.callsTo('chat.update').filter((c) => c.body.channel === ALERTS && c.body.ts === rootTs),
    close: async () => {
      for (const b of bots.splice(0)) await b.close().catch(() => undefined);
      await deleteRedisKeys(redisUrl, `${prefix}:*`);
      await sim.close();
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Watched = NonNullable<ReturnType<NonNullable<RunningServe['incidents']['watcher']>['current']>>['watcher'];

/**
 * Waits for the bot to be done with what it has seen (instead of sleeping "long enough"): the
 * watcher sees what `seen` asks for, its unready timers have fired or been cleared, the changes it
 * queued are handled, and no incident job is waiting, delayed or running.
 */
export async function settled(bot: RunningServe, seen: (watcher: Watched) => boolean = () => true): Promise<void> {
  const current = () => bot.incidents.watcher?.current() ?? null;
  await until(() => Boolean(current() && seen(current()!.watcher)), 'the watcher to see the change');
  await until(() => current()!.tracker.pendingTimers === 0, 'the unready timers');
  await current()!.tracker.idle();
  await until(
    async () =>
      (await bot.incidents.queue.queue.getJobCountByTypes('waiting', 'delayed', 'active', 'prioritized')) === 0,
    'the incident jobs',
  );
}

/** A watcher predicate: it holds `key` with that readiness (and a Ready transition at or after `since`). */
export const sees =
  (key: string, ready: boolean, since = 0) =>
  (w: Watched) => {
    const s = w.get(key);
    return s !== undefined && s.ready === ready && (s.transitionAt ?? 0) >= since;
  };
