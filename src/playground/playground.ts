/**
 * startPlayground: the real bot in a browser, on a simulated cluster, without Slack or a cluster.
 * One process serves the page, the Slack stand-in (the bot's SLACK_API_URL) and the cluster
 * simulator (in process, with the playground's controller); it supervises two children: Redis
 * (unless REDIS_URL is set) and the bot (`isvc-doctor serve`, HTTP mode, the production code path,
 * configured only through its environment and config file). A child's crash is shown on the page and
 * in the terminal; close() stops everything it started.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BotRequests } from '../slack-standin/bot-requests.js';
import { createSlackStandin, type SlackStandin } from '../slack-standin/slack-standin.js';
import { startSimulator, type RunningSimulator } from '../simulator/simulator.js';
import { startBotProcess, type BotLogLine } from './bot-process.js';
import { isvcRows } from './cluster/cluster-view.js';
import { PlaygroundController } from './cluster/playground-controller.js';
import { bundledScenarioDirs, loadPlaygroundCluster } from './playground-cluster.js';
import { CHANNELS, PEOPLE, playgroundBotConfig } from './playground-workspace.js';
import { playgroundRedis, type PlaygroundRedis } from './private-redis.js';
import { EventStream } from './web/event-stream.js';
import { serveStatic } from './web/static-files.js';
import { handleUi } from './web/ui-routes.js';

export const DEFAULT_PORT = 8080;

export interface PlaygroundOptions {
  /** none: 8080, or a free port when it is taken; 0: a free port. */
  port?: number;
  /** Snapshot folders; none: the bundled scenarios. */
  snapshots?: string[];
  /** Progress and the bot's warnings and errors (the terminal). */
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** alerts.unreadyAfter of the bot's config, default 5s. */
  unreadyAfter?: string;
}

export interface RunningPlayground {
  url: string;
  standin: SlackStandin;
  simulator: RunningSimulator;
  /** Resolves when a child stops on its own (its description). */
  crashed: Promise<string>;
  close(): Promise<void>;
}

export async function startPlayground(options: PlaygroundOptions = {}): Promise<RunningPlayground> {
  const log = options.log ?? (() => undefined);
  const cluster = await loadPlaygroundCluster(
    options.snapshots?.length ? options.snapshots : await bundledScenarioDirs(),
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'isvc-playground-'));
  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
  };
  try {
    return await start(options, cluster, dir, cleanups, close, log);
  } catch (error) {
    await close();
    throw error;
  }
}

async function start(
  options: PlaygroundOptions,
  cluster: Awaited<ReturnType<typeof loadPlaygroundCluster>>,
  dir: string,
  cleanups: Array<() => Promise<void> | void>,
  close: () => Promise<void>,
  log: (line: string) => void,
): Promise<RunningPlayground> {
  const events = new EventStream();
  const processes: Record<string, string> = { redis: 'starting', bot: 'starting', cluster: 'starting' };
  const logs: BotLogLine[] = [];
  let crash!: (why: string) => void;
  const crashed = new Promise<string>((resolve) => (crash = resolve));
  const setProcess = (name: string, status: string) => {
    processes[name] = status;
    events.send('process', processes);
  };

  const simulator = await startSimulator({ snapshot: cluster.snapshot });
  cleanups.push(() => simulator.close());
  const kubeconfig = path.join(dir, 'kubeconfig');
  await simulator.writeKubeconfig(kubeconfig);
  const controller = new PlaygroundController(simulator.store, cluster.snapshot.logs, cluster.workloads);
  controller.start();
  cleanups.push(() => controller.stop());
  setProcess('cluster', `simulator at ${simulator.url}`);
  let pending: NodeJS.Timeout | undefined;
  const unsubscribe = simulator.store.subscribe((change) => {
    if (change.object.kind !== 'InferenceService' && change.object.kind !== 'LLMInferenceService') return;
    const key = `${change.object.metadata.namespace}/${change.object.metadata.name}`;
    clearTimeout(pending);
    pending = setTimeout(() => events.send('cluster', { rows: isvcRows(simulator.store), changed: key }), 50);
  });
  cleanups.push(() => {
    unsubscribe();
    clearTimeout(pending);
  });

  let requests: BotRequests | undefined;
  const server = http.createServer((req, res) => void route(req, res));
  const route = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://playground');
    if (standin.handle(req, res)) return;
    if (url.pathname === '/events') return events.open(req, res);
    if (
      await handleUi(
        {
          standin,
          bot: () => requests,
          store: simulator.store,
          controller,
          processes: () => processes,
          logs: () => logs,
          clusterName: 'playground',
        },
        req,
        res,
        url,
      )
    )
      return;
    if (req.method === 'GET' && (await serveStatic(url.pathname, res))) return;
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  };
  await listen(server, options.port);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        events.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = `xoxb-fake_playground_${randomBytes(8).toString('hex')}`;
  const signingSecret = randomBytes(16).toString('hex');
  const standin = createSlackStandin({ baseUrl, strict: true, token, keepCalls: 2000 });
  for (const p of PEOPLE) standin.store.people.set(p.id, p);
  for (const c of CHANNELS) standin.store.channels.set(c.id, c);
  standin.store.subscribe((event) => events.send('slack', event));

  const redis: PlaygroundRedis = await playgroundRedis(options.env ?? process.env);
  cleanups.push(() => redis.stop());
  setProcess('redis', redis.child ? `redis-server at ${redis.url} (pid ${redis.child.pid})` : `REDIS_URL ${redis.url}`);
  let closing = false;
  redis.child?.once('exit', (code, signal) => {
    if (closing) return;
    const why = `redis-server ${signal ? `was killed by ${signal}` : `exited with status ${code}`}`;
    setProcess('redis', `stopped: ${why}`);
    crash(why);
  });

  const configFile = path.join(dir, 'isvc-doctor.yaml');
  writeFileSync(configFile, playgroundBotConfig(options.unreadyAfter ? { unreadyAfter: options.unreadyAfter } : {}));
  const onLog = (line: BotLogLine) => {
    logs.push(line);
    if (logs.length > 300) logs.shift();
    events.send('log', line);
    if (line.level !== 'info') log(`bot: ${line.level}: ${line.msg}`);
  };
  const bot = await startBotProcess({
    configFile,
    env: {
      SLACK_API_URL: standin.apiUrl,
      SLACK_BOT_TOKEN: token,
      SLACK_SIGNING_SECRET: signingSecret,
      REDIS_URL: redis.url,
      KUBECONFIG: kubeconfig,
      PORT: '0',
      METRICS_PORT: '0',
      SHUTDOWN_TIMEOUT_MS: '3000',
    },
    onLog,
    onExit: (why) => {
      requests = undefined;
      setProcess('bot', `stopped: the bot ${why}`);
      crash(`the bot ${why}`);
    },
  });
  cleanups.push(() => bot.stop());
  requests = new BotRequests(standin, { eventsUrl: `${bot.url}/slack/events`, signingSecret });
  setProcess('bot', `isvc-doctor serve at ${bot.url} (pid ${bot.child.pid})`);
  // the children have their own process groups: whatever ends this process ends them too
  const killChildren = () => {
    for (const child of [bot.child, redis.child])
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killChildren);
  cleanups.push(() => {
    closing = true;
    process.off('exit', killChildren);
  });
  // the URL is handed out once the page answers
  for (const asset of ['/', '/page/main.js']) {
    const res = await fetch(`${baseUrl}${asset}`).catch((error: Error) => ({ status: 0, statusText: error.message }));
    if (res.status !== 200)
      throw new Error(
        `the page does not answer at ${baseUrl}${asset} (${res.status || res.statusText}): build it first (npm start builds it)`,
      );
  }
  return { url: baseUrl, standin, simulator, crashed, close };
}

/** The given port; none given: 8080, or any free port when 8080 is taken. */
async function listen(server: http.Server, port: number | undefined): Promise<void> {
  const attempt = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  if (port !== undefined)
    return attempt(port).catch((error: NodeJS.ErrnoException) => {
      throw new Error(
        error.code === 'EADDRINUSE'
          ? `port ${port} is in use: pick another with --port N, or --port 0 for any free port`
          : error.message,
      );
    });
  await attempt(DEFAULT_PORT).catch((error: NodeJS.ErrnoException) =>
    error.code === 'EADDRINUSE' ? attempt(0) : Promise.reject(error),
  );
}
