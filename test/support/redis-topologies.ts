/**
 * Redis topologies on loopback for the Redis HA tests: a Redis Cluster of masters
 * (`redis-server --cluster-enabled yes`, joined with `redis-cli --cluster create … --cluster-yes`)
 * and a Sentinel setup (a master, a replica, a sentinel). Free ports only; every process is stopped
 * (and its folder removed) by `stop()`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './redis-process.mjs';
import { until } from './until.js';

export interface RedisNode {
  port: number;
  child: ChildProcess;
  /** SIGKILL, resolves once it has exited. */
  kill(): Promise<void>;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A free port whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(): Promise<number> {
  for (;;) {
    const port = (await freePort()) as number;
    if (port + 10000 < 65536 && (await canListen(port + 10000))) return port;
  }
}

function startNode(args: string[], ready: RegExp): Promise<RedisNode> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = Number(args[args.indexOf('--port') + 1] ?? 0);
  return new Promise((resolve, reject) => {
    let out = '';
    // a server that never gets ready is killed: left running, its pipes would hold the test run open
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server ${args.join(' ')} did not start: ${out.slice(-300)}`));
    }, 15_000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({
          port,
          child,
          kill: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            await exited;
          },
        });
      }
    });
  });
}

export interface RedisClusterHandle {
  url: string;
  nodes: RedisNode[];
  stop(): Promise<void>;
}

/** Runs `start` with the nodes it starts; when it fails, they are stopped and the folder removed. */
async function stoppedOnFailure<T>(dir: string, nodes: RedisNode[], start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    for (const n of nodes) await n.kill();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export async function startRedisCluster(masters = 3): Promise<RedisClusterHandle> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'isvc-redis-cluster-'));
  const nodes: RedisNode[] = [];
  await stoppedOnFailure(dir, nodes, () => joinCluster(dir, nodes, masters));
  return {
    url: `redis-cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    nodes,
    stop: async () => {
      for (const n of nodes) await n.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function joinCluster(dir: string, nodes: RedisNode[], masters: number): Promise<void> {
  for (let i = 0; i < masters; i += 1) {
    const port = await freeClusterPort();
    nodes.push(
      await startNode(
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          path.join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          '2000',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dir,
        ],
        /Ready to accept connections/,
      ),
    );
  }
  const create = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-yes'],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  for (const n of nodes) {
    const r = new Redis(n.port, '127.0.0.1');
    try {
      await until(async () => /cluster_state:ok/.test(await r.cluster('INFO')), `cluster_state:ok on ${n.port}`);
    } finally {
      r.disconnect();
    }
  }
}

export interface RedisSentinelHandle {
  url: string;
  master: RedisNode;
  replica: RedisNode;
  sentinel: RedisNode;
  /** The port the sentinel names as the master now. */
  masterPort(): Promise<number>;
  stop(): Promise<void>;
}

export async function startRedisSentinel(name = 'mymaster'): Promise<RedisSentinelHandle> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'isvc-redis-sentinel-'));
  const [mp, rp, sp] = [(await freePort()) as number, (await freePort()) as number, (await freePort()) as number];
  const common = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const started: RedisNode[] = [];
  const start = (args: string[], ready: RegExp) =>
    stoppedOnFailure(dir, started, async () => {
      const node = await startNode(args, ready);
      started.push(node);
      return node;
    });
  const master = await start(['--port', String(mp), ...common], /Ready to accept connections/);
  const replica = await start(
    ['--port', String(rp), ...common, '--replicaof', '127.0.0.1', String(mp)],
    /MASTER <-> REPLICA sync: Finished/,
  );
  const conf = path.join(dir, 'sentinel.conf');
  writeFileSync(
    conf,
    [
      `port ${sp}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${name} 127.0.0.1 ${mp} 1`,
      `sentinel down-after-milliseconds ${name} 1000`,
      `sentinel failover-timeout ${name} 5000`,
      '',
    ].join('\n'),
  );
  const sentinel = await start([conf, '--sentinel', '--port', String(sp)], /\+monitor master/);
  const masterPort = async () => {
    const s = new Redis(sp, '127.0.0.1');
    try {
      const addr = (await s.call('SENTINEL', 'get-master-addr-by-name', name)) as [string, string];
      return Number(addr[1]);
    } finally {
      s.disconnect();
    }
  };
  return {
    url: `redis-sentinel://127.0.0.1:${sp}/${name}`,
    master,
    replica,
    sentinel,
    masterPort,
    stop: async () => {
      for (const n of [sentinel, replica, master]) await n.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
