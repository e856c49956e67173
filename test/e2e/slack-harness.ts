/**
 * Runs the real bot (startServe: Bolt HTTP receiver, handlers, BullMQ on the harness Redis, worker,
 * diagnosis engine) against the fake Slack Web API and the cluster simulator serving a scenario.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ServeRole } from '../../src/app/roles.js';
import { startServe, type RunningServe } from '../../src/app/serve.js';
import { buildConfig, type AppConfig } from '../../src/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { PlaygroundController } from '../../src/playground/cluster/playground-controller.js';
import { loadPlaygroundCluster } from '../../src/playground/playground-cluster.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot, type Snapshot } from '../../src/snapshot/load-snapshot.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';

export const SIGNING_SECRET = 'test-signing-secret';
export const BOT_TOKEN = 'xoxb-e2e-token';

export interface BotHarness {
  slack: FakeSlackApi;
  sim: RunningSimulator;
  /** The simulator's snapshot: its `deny` rules are read at each request (a test may add one). */
  snapshot: Snapshot;
  bot: RunningServe;
  config: AppConfig;
  eventsUrl: string;
  prefix: string;
  /** Another process' worth of bot on the same Redis and queue. */
  startAnother(role: ServeRole, overrides?: { redisUrl?: string }): Promise<RunningServe>;
  close(): Promise<void>;
}

export async function startBotHarness(
  options: {
    scenario?: string;
    role?: ServeRole;
    redisUrl?: string;
    file?: Record<string, unknown>;
    slack?: FakeSlackApi;
    latencyMs?: number;
    appToken?: string;
    now?: () => number;
    /** A bundled playground scenario (src/playground/scenarios/NAME), with the playground's controller acting on changes. */
    playground?: string;
    /** More environment (MCP_PORT, MCP_TOKENS, …). */
    env?: Record<string, string>;
  } = {},
): Promise<BotHarness> {
  const redisUrl = options.redisUrl ?? testRedisUrl();
  const slack = options.slack ?? (await startFakeSlackApi());
  const cluster = options.playground
    ? await loadPlaygroundCluster([path.resolve('src/playground/scenarios', options.playground)])
    : null;
  const snapshot =
    cluster?.snapshot ??
    (await loadSnapshot(path.resolve('test/scenarios', options.scenario ?? 'storage-uri-not-found')));
  const sim = await startSimulator({ snapshot, ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}) });
  // the controllers' stand-in: a change the bot applies leads to the state that spec gives
  const controller = cluster ? new PlaygroundController(sim.store, snapshot.logs, cluster.workloads, 150) : null;
  controller?.start();
  const prefix = `e2e-${randomUUID().slice(0, 8)}`;
  const config = buildConfig(
    { namespaces: ['default', 'kserve-test'], queue: { concurrency: 4, backoffMs: 50, attempts: 3 }, ...options.file },
    {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redisUrl,
      PORT: '0',
      METRICS_PORT: '0',
      ...(options.appToken ? { SLACK_APP_TOKEN: options.appToken } : {}),
      ...options.env,
    },
  );
  const kubeConfig = kubeConfigForServer(sim.url);
  const others: RunningServe[] = [];
  const bot = await startServe({
    config,
    role: options.role ?? 'all',
    kubeConfig,
    logger: silentLogger,
    queuePrefix: prefix,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    slack,
    sim,
    snapshot,
    bot,
    config,
    prefix,
    eventsUrl: `${bot.url}/slack/events`,
    startAnother: async (role, overrides = {}) => {
      const other = await startServe({
        config: { ...config, redisUrl: overrides.redisUrl ?? config.redisUrl },
        role,
        kubeConfig,
        logger: silentLogger,
        queuePrefix: prefix,
      });
      others.push(other);
      return other;
    },
    // every part is closed even when one fails to (a process whose Redis is gone): a part left open
    // (its server, its Redis clients' reconnect timers) would hold the test run open
    close: async () => {
      const steps: Array<() => unknown> = [
        ...others.map((o) => () => o.close()),
        () => bot.close(),
        () => controller?.stop(),
        () => deleteRedisKeys(redisUrl, `${prefix}:*`),
        () => sim.close(),
        () => (options.slack ? undefined : slack.close()),
      ];
      const failed: unknown[] = [];
      for (const step of steps)
        await Promise.resolve()
          .then(step)
          .catch((error: unknown) => failed.push(error));
      if (failed.length > 0) throw failed[0];
    },
  };
}

export const textOf = (body: Record<string, any>) => `${body.text ?? ''} ${JSON.stringify(body.blocks ?? [])}`;
