/**
 * `isvc-doctor serve` in a process of its own, as deployed: Slack at the fake Web API (SLACK_API_URL),
 * the bench's redis-server, the simulator's kubeconfig. Each start gets its own queue and Lease
 * names, so that runs never see each other's jobs.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './bench-context.js';
import { cliBin } from './cli-bin.js';
import { startListening, type ListeningProcess } from './listening-process.js';

export const SIGNING_SECRET = 'bench-signing-secret';

export interface ServeOptions {
  role?: 'all' | 'web' | 'worker' | 'watcher' | 'agent';
  /** More arguments (`--cluster NAME` for an agent). */
  args?: string[];
  /** Processes that must share a queue (a web process and its agents) pass the same name. */
  queueName?: string;
  /** Absent: no kubeconfig at all (a multi-cluster web process). */
  kubeconfig?: string;
  /** The config file's content (queue and Lease names are added). */
  config?: Record<string, unknown>;
}

export interface ServeProcess extends ListeningProcess {
  eventsUrl: string;
  queueName: string;
}

export async function startServeProcess(ctx: BenchContext, options: ServeOptions): Promise<ServeProcess> {
  const id = randomUUID().slice(0, 8);
  const queueName = options.queueName ?? `bench-${id}`;
  const config = {
    ...options.config,
    queue: { ...((options.config?.queue as object | undefined) ?? {}), name: queueName },
    leaderElection: { leaseName: queueName },
  };
  const file = path.join(ctx.workDir, `serve-${id}.yaml`);
  writeFileSync(file, `${JSON.stringify(config)}\n`);
  const slack = await ctx.slack();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SLACK_BOT_TOKEN: 'xoxb-bench',
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    REDIS_URL: await ctx.redisUrl(),
    PORT: '0',
    METRICS_PORT: '0',
    ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}), // when --keep-env kept it
    ...(options.kubeconfig ? { KUBECONFIG: options.kubeconfig } : {}),
  };
  const args = [cliBin(), 'serve', '--config', file, '--role', options.role ?? 'all', ...(options.args ?? [])];
  const running = await startListening(
    `serve --role ${options.role ?? 'all'} ${(options.args ?? []).join(' ')}`.trim(),
    process.execPath,
    args,
    env,
  );
  return { ...running, eventsUrl: `${running.url}/slack/events`, queueName };
}
