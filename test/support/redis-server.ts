import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A throwaway redis-server on a free loopback port, for tests and benchmarks. */
export interface RedisHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startRedisServer(options: { port?: number; dir?: string; appendOnly?: boolean } = {}): Promise<RedisHandle> {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'isvc-doctor-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, '--appendonly', options.appendOnly ? 'yes' : 'no'];
  let child: ChildProcess;
  try {
    child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`cannot start redis-server (install it: apt-get install -y redis-server): ${String(error)}`);
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start within 10 s')), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start redis-server (install it: apt-get install -y redis-server): ${error.message}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
