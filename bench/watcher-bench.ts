/**
 * Unready-watcher benchmark (`npm run bench`), against the simulator holding 10,000
 * InferenceServices (all in this process, on a throwaway Redis):
 * 1. the watcher alone (Lease, informers, tracker): memory held after its first list (heap and RSS
 *    growth), CPU and wall time of that first sync, and CPU while idle (no polling: ~0);
 * 2. the whole bot (watcher + incident workers + fake Slack): 1,000 services turn Ready=False at
 *    once; time from unreadyAfter to the grouped incident's root message, and to the root message
 *    listing all 1,000 (every one diagnosed and grouped). Prints figures and ratios to targets.
 */
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Redis } from 'ioredis';
import { silentLogger } from '../src/core/logger.js';
import { startServe } from '../src/app/serve.js';
import { buildConfig } from '../src/config.js';
import { IncidentQueue } from '../src/incidents/incident-queue.js';
import { IncidentStore } from '../src/incidents/incident-store.js';
import { kubeConfigForServer } from '../src/kube/client.js';
import { startSimulator } from '../src/simulator/simulator.js';
import { startWatcherService } from '../src/watcher/watcher-service.js';
import { startFakeSlackApi } from '../test/support/fake-slack-api.js';

const SERVICES = 10_000;
const FAILING = 1_000;
const UNREADY_AFTER_MS = 1000;
const TARGETS = { heapMb: 150, syncMs: 5000, idleCpuMs: 50, firstPostMs: 5000, allListedMs: 60_000 };

function isvc(i: number, ready: boolean): Record<string, unknown> {
  const name = `model-${String(i).padStart(5, '0')}`;
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, namespace: 'default', labels: { team: `t${i % 20}` } },
    spec: { predictor: { sklearn: { storageUri: `gs://models/${name}`, resources: { limits: { memory: '1Gi' } } } } },
    status: {
      url: `http://${name}.default.example.com`,
      conditions: [
        { type: 'PredictorReady', status: ready ? 'True' : 'False', lastTransitionTime: new Date().toISOString() },
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date().toISOString(), ...(ready ? {} : { reason: 'IngressNotConfigured', message: 'Ingress has not yet been reconciled.' }) },
      ],
    },
  };
}

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const ratio = (value: number, target: number) => `${(value / target).toFixed(2)}× target (${target})`;

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

export async function benchWatcher(): Promise<void> {
  const redisHandle = process.env.REDIS_URL ? null : await (await import('../test/support/redis-server.js')).startRedisServer();
  const redisUrl = process.env.REDIS_URL ?? redisHandle!.url;
  const sim = await startSimulator({ snapshot: { dir: '/nonexistent', objects: Array.from({ length: SERVICES }, (_, i) => isvc(i, true)), logs: new Map(), deny: [] } });
  const kubeConfig = kubeConfigForServer(sim.url);
  const prefix = `bench-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const slack = await startFakeSlackApi();
  try {
    console.log(`watcher: ${SERVICES} InferenceServices in the simulator`);
    // 1. The watcher alone.
    const store = new IncidentStore(redis, `${prefix}:w:incidents`);
    const queue = new IncidentQueue({ connection: redis, name: `${prefix}-w`, prefix, refreshDelayMs: 1000 });
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const rss0 = process.memoryUsage().rss;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const watcher = startWatcherService({
      kubeConfig,
      namespaces: ['default'],
      store,
      jobs: queue,
      unreadyAfterMs: UNREADY_AFTER_MS,
      watched: () => true,
      lease: { namespace: 'default', name: `${prefix}-lease`, durationMs: 15_000 },
      logger: silentLogger,
    });
    await watcher.leading();
    const syncMs = performance.now() - t0;
    const syncCpu = process.cpuUsage(cpu0);
    gc();
    const heapMb = mb(process.memoryUsage().heapUsed - heap0);
    const rssMb = mb(process.memoryUsage().rss - rss0);
    const idle0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 3000));
    const idle = process.cpuUsage(idle0);
    const idleCpuMs = (idle.user + idle.system) / 1000;
    const held = watcher.current()?.watcher.size ?? 0;
    await watcher.close();
    await queue.close();
    console.log(`  holding ${held}: heap +${heapMb.toFixed(1)} MB (${((heapMb * 1024) / SERVICES).toFixed(1)} KB each), RSS +${rssMb.toFixed(1)} MB — heap ${ratio(heapMb, TARGETS.heapMb)} MB`);
    console.log(`  first list + watch: ${syncMs.toFixed(0)} ms wall, ${((syncCpu.user + syncCpu.system) / 1000).toFixed(0)} ms CPU (watcher and simulator in one process) — ${ratio(syncMs, TARGETS.syncMs)} ms`);
    console.log(`  idle, watch open: ${idleCpuMs.toFixed(1)} ms CPU in 3 s (no polling) — ${ratio(idleCpuMs, TARGETS.idleCpuMs)} ms`);

    // 2. The whole bot: 1,000 fail at once.
    const config = buildConfig(
      { namespaces: ['default'], alerts: { channel: 'C0BENCH', unreadyAfter: `${UNREADY_AFTER_MS}ms` }, queue: { concurrency: 8, name: `${prefix}-q` }, leaderElection: { leaseName: `${prefix}-bot` } },
      { SLACK_BOT_TOKEN: 'xoxb-bench', SLACK_SIGNING_SECRET: 'bench', SLACK_API_URL: slack.apiUrl, REDIS_URL: redisUrl, PORT: '0' },
    );
    const bot = await startServe({ config, role: 'all', kubeConfig, logger: silentLogger, queuePrefix: prefix, incidents: { refreshDelayMs: 1000 } });
    try {
      await bot.incidents.watcher!.leading();
      const flippedAt = performance.now();
      for (let i = 0; i < FAILING; i += 1) sim.store.upsert(isvc(i * (SERVICES / FAILING), false));
      const roots = () => slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0BENCH' && !c.body.thread_ts);
      const firstOk = await until(() => roots().length > 0, 120_000);
      const firstMs = performance.now() - flippedAt - UNREADY_AFTER_MS;
      const allPattern = new RegExp(`^🔴 ${FAILING} InferenceServices not ready`);
      const allOk = firstOk && (await until(() => slack.callsTo('chat.update').some((u) => allPattern.test(String(u.body.text))), 180_000));
      const allMs = performance.now() - flippedAt - UNREADY_AFTER_MS;
      if (!firstOk) console.log('  1,000 failing: no incident within 120 s');
      else {
        console.log(`  ${FAILING} fail at once: grouped incident posted ${firstMs.toFixed(0)} ms after unreadyAfter — ${ratio(firstMs, TARGETS.firstPostMs)} ms`);
        console.log(
          allOk
            ? `  all ${FAILING} diagnosed and listed in it ${(allMs / 1000).toFixed(1)} s after unreadyAfter — ${ratio(allMs, TARGETS.allListedMs)} ms; top-level posts: ${roots().length} (target 1)`
            : `  not all ${FAILING} listed within 180 s; top-level posts: ${roots().length}`,
        );
      }
    } finally {
      await bot.close();
    }
  } finally {
    const keys = await redis.keys(`${prefix}*`).catch(() => [] as string[]);
    if (keys.length > 0) await redis.del(...keys).catch(() => undefined);
    redis.disconnect();
    await slack.close();
    await sim.close();
    await redisHandle?.stop();
  }
}
