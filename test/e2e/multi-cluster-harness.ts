/**
 * The multi-cluster install as deployed, on loopback: one Redis (the test run's), the fake Slack
 * Web API, a cluster simulator per cluster (its own scenario), and `isvc-doctor serve` processes
 * from dist/: one `--role web` with no kubeconfig at all, one `--role agent --cluster NAME` per
 * cluster holding only that simulator's kubeconfig. Agents can be SIGKILLed and started again.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startListening, type ListeningProcess } from '../../bench/listening-process.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { ensureBuilt } from '../support/ensure-built.js';
import { tempDir } from '../support/temp-dirs.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';

export const SIGNING_SECRET = 'mc-signing-secret';

export interface MultiClusterHarness {
  slack: FakeSlackApi;
  sims: Record<string, RunningSimulator>;
  web: ListeningProcess;
  eventsUrl: string;
  queueName: string;
  agents: Map<string, ListeningProcess>;
  startAgent(cluster: string): Promise<ListeningProcess>;
  close(): Promise<void>;
}

export async function startMultiClusterHarness(options: {
  scenarios: Record<string, string>;
  clusters: Record<string, unknown>;
  file?: Record<string, unknown>;
  redisUrl?: string;
  /** More environment for the web process (MCP_PORT, MCP_TOKENS). */
  webEnv?: Record<string, string>;
}): Promise<MultiClusterHarness> {
  ensureBuilt();
  const redisUrl = options.redisUrl ?? testRedisUrl();
  const dir = tempDir('isvc-mc-');
  const slack = await startFakeSlackApi();
  const sims: Record<string, RunningSimulator> = {};
  const kubeconfigs: Record<string, string> = {};
  for (const [cluster, scenario] of Object.entries(options.scenarios)) {
    sims[cluster] = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios', scenario)) });
    kubeconfigs[cluster] = path.join(dir, `${cluster}.kubeconfig`);
    writeFileSync(kubeconfigs[cluster]!, kubeConfigForServer(sims[cluster]!.url).exportConfig());
  }
  const queueName = `mc-${randomUUID().slice(0, 8)}`;
  const configFile = path.join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    JSON.stringify({
      queue: { name: queueName, backoffMs: 50, attempts: 3 },
      leaderElection: { leaseName: queueName },
      clusters: options.clusters,
      ...options.file,
    }),
  );
  // HOME is an empty folder: no ~/.kube/config to fall back on
  const env = (kubeconfig?: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: dir,
    SLACK_BOT_TOKEN: 'xoxb-mc',
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    REDIS_URL: redisUrl,
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...(kubeconfig ? { KUBECONFIG: kubeconfig } : {}),
    ...extra,
  });
  const serve = (role: string, extra: string[], kubeconfig?: string, moreEnv?: Record<string, string>) =>
    startListening(
      `serve --role ${role} ${extra.join(' ')}`,
      process.execPath,
      [path.resolve('dist/src/cli/isvc-doctor.js'), 'serve', '--config', configFile, '--role', role, ...extra],
      env(kubeconfig, moreEnv),
    );
  const web = await serve('web', [], undefined, options.webEnv);
  const agents = new Map<string, ListeningProcess>();
  const startAgent = async (cluster: string) => {
    const agent = await serve('agent', ['--cluster', cluster], kubeconfigs[cluster]);
    agents.set(cluster, agent);
    return agent;
  };
  return {
    slack,
    sims,
    web,
    eventsUrl: `${web.url}/slack/events`,
    queueName,
    agents,
    startAgent,
    close: async () => {
      await Promise.all([web, ...agents.values()].map((p) => p.stop()));
      for (const s of Object.values(sims)) await s.close();
      await slack.close();
      for (const cluster of Object.keys(options.clusters))
        await deleteRedisKeys(redisUrl, `{bull-${cluster}}:${queueName}*`);
    },
  };
}
