/**
 * The Redis the playground's bot uses: REDIS_URL when set, else a private redis-server from PATH on
 * a free loopback port (no persistence, its folder removed on stop).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

export class RedisMissingError extends Error {}

export interface PlaygroundRedis {
  url: string;
  /** The private server (none when REDIS_URL was used). */
  child?: ChildProcess;
  stop(): Promise<void>;
}

const INSTALL =
  'no redis-server on PATH: install it (Debian/Ubuntu: apt-get install redis-server, macOS: brew install redis) or set REDIS_URL to a Redis the playground may use';

export async function playgroundRedis(env: NodeJS.ProcessEnv = process.env): Promise<PlaygroundRedis> {
  if (env.REDIS_URL) return { url: env.REDIS_URL, stop: async () => undefined };
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'isvc-playground-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start within 10 s')), 10_000);
      child.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(error.code === 'ENOENT' ? new RedisMissingError(INSTALL) : error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with code ${code} before it was ready`));
      });
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  } catch (error) {
    cleanup();
    throw error;
  }
  child.removeAllListeners('exit');
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      cleanup();
    },
  };
}
