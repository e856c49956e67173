// redis-server run the way deploy/redis/statefulset.yaml runs it (its args: append-only file,
// maxmemory with noeviction, the `default` user off and the ACL user isvc-doctor with the Secret's
// password), on a free loopback port, with the REDIS_URL that deploy/base/deployment.yaml builds
// for the bot from the same Secret key (Kubernetes' $(VAR) expansion), pointed at that port.
// Used by scripts/smoke-production-install.mjs (the real bot against it) and
// test/integration/deploy-redis.test.ts. Plain JavaScript, with redis-as-deployed.d.mts.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readYaml = (file) => parseYaml(readFileSync(path.join(repo, file), 'utf8'));

/** Kubernetes' expansion of $(NAME) in args and env values: defined names are replaced, $$ is a literal $. */
export function expandVars(text, vars) {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, name) =>
    m === '$$' ? '$' : name in vars ? vars[name] : m,
  );
}

/** The Redis container of deploy/redis/statefulset.yaml. */
export function redisContainer() {
  return readYaml('deploy/redis/statefulset.yaml').spec.template.spec.containers[0];
}

/** The bot container's environment in deploy/base/deployment.yaml. */
export function botEnv() {
  return readYaml('deploy/base/deployment.yaml').spec.template.spec.containers[0].env;
}

/** Expands an env list in order, as the kubelet does, with values for the Secret references. */
export function expandEnv(env, secrets) {
  const vars = {};
  for (const e of env) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref) vars[e.name] = secrets[`${ref.name}/${ref.key}`] ?? '';
    else if (typeof e.value === 'string') vars[e.name] = expandVars(e.value, vars);
  }
  return vars;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts redis-server with the StatefulSet's args (the data directory replaced by a temporary one,
 * the port by a free loopback one) and `password` as the Secret isvc-doctor-redis's `password`.
 */
export async function startDeployedRedis(password) {
  const container = redisContainer();
  const secrets = { 'isvc-doctor-redis/password': password };
  const containerEnv = expandEnv(container.env ?? [], secrets);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-deployed-redis-'));
  const args = container.args.map((a) => expandVars(a, containerEnv));
  args[args.indexOf('--dir') + 1] = dir;
  const child = spawn('redis-server', [...args, '--port', String(port), '--bind', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () =>
        reject(new Error(`redis-server did not start within 10 s: ${out.trim().split('\n').slice(-2).join(' | ')}`)),
      10_000,
    );
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start redis-server: ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out.trim().split('\n').slice(-3).join(' | ')}`));
    });
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.removeAllListeners('exit');
  child.stdout.resume();
  child.stderr.resume();
  const url = new URL(expandEnv(botEnv(), secrets).REDIS_URL);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    port,
    args,
    /** Runs the StatefulSet's readiness probe command against this server (redis-cli, with the container's env). */
    probe: (env = containerEnv) => {
      const [command, ...rest] = container.readinessProbe.exec.command;
      return spawnSync(command, ['-p', String(port), ...rest], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, ...env },
      });
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGTERM');
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
