// A throwaway redis-server on a free loopback port, for tests and benchmarks. Plain JavaScript so
// that Jest's globalSetup (loaded outside the ESM test runtime) and the TypeScript tests share it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export async function freePort() {
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

const INSTALL_HINT = 'install it: apt-get install -y redis-server, or set REDIS_URL';

export async function startRedisServer(options = {}) {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'isvc-doctor-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--dir',
    dir,
    '--appendonly',
    options.appendOnly ? 'yes' : 'no',
  ];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start within 10 s (${INSTALL_HINT})`)),
      10_000,
    );
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start redis-server (${INSTALL_HINT}): ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with code ${code} before it was ready`));
    });
    child.stdout.on('data', (chunk) => {
      if (chunk.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
