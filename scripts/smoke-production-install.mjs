#!/usr/bin/env node
// Production-install smoke test: what the Dockerfile's runtime stage does, without Docker.
// Copies package.json + package-lock.json into an empty temporary directory, runs
// `npm ci --omit=dev` there, copies the built dist/ (run `npm run build` first), then from that
// directory only (no dev dependency can be reached): `isvc-doctor --help`, `isvc-doctor simulate` on a
// scenario, and `isvc-doctor serve` with deploy/base/config.yaml against a fake Slack Web API
// (auth.test and chat.*) started here and a Redis: REDIS_URL, or a redis-server started here the way
// deploy/redis runs it (its ACL user, password, maxmemory and noeviction; scripts/redis-as-deployed.mjs),
// reached with the REDIS_URL deploy/base/deployment.yaml builds. Checks /healthz, /readyz and /metrics
// on the metrics port (and that Slack's port serves none of them), that a signed `/isvc diagnose` is
// answered in its thread with the root cause, that `promtool check metrics` finds on /metrics only the
// problems listed in KNOWN_METRIC_LINT (PROMTOOL or promtool on PATH; skipped with a note when there is
// none), then SIGTERM: both processes must exit 0.
// Exit status 0 when all pass.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDeployedRedis } from './redis-as-deployed.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCENARIO = path.join(repo, 'test/scenarios/storage-uri-not-found');
const TARGET = 'sklearn-iris -n default';
const SECRET = 'smoke-signing-secret';
const started = Date.now();
const children = [];
const cleanups = [];

const log = (m) => process.stdout.write(`smoke: ${m}\n`);
function fail(m) {
  process.stderr.write(`smoke: FAILED: ${m}\n`);
  void cleanup().finally(() => process.exit(1));
}
async function cleanup() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const f of cleanups.reverse()) await f();
}
process.on('unhandledRejection', (e) => fail(e instanceof Error ? e.message : String(e)));

/** Starts a process; resolves with it once a stdout line matches `ready`. */
function start(name, args, options, ready, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    const timer = setTimeout(
      () =>
        reject(
          new Error(`${name} did not start within ${timeoutMs} ms: ${err.trim().split('\n').slice(-3).join(' | ')}`),
        ),
      timeoutMs,
    );
    child.stdout.on('data', (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m, stderr: () => err });
      }
    });
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${name} exited (${code ?? signal}) before it was ready: ${err.trim().split('\n').slice(-3).join(' | ')}`,
        ),
      );
    });
  });
}

function stop(child, name, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const timer = setTimeout(
      () => reject(new Error(`${name} did not exit within ${timeoutMs} ms of SIGTERM`)),
      timeoutMs,
    );
    child.removeAllListeners('exit');
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Date.now() - t0);
      else reject(new Error(`${name} exited with ${code ?? signal} after SIGTERM`));
    });
    child.kill('SIGTERM');
  });
}

/** A fake Slack Web API: auth.test for the start, chat.* recorded. */
function startFakeSlack() {
  const calls = [];
  let ts = 0;
  const nextTs = () => {
    ts += 1;
    return `1700000000.${String(ts).padStart(6, '0')}`;
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0];
      const params = req.headers['content-type']?.includes('json')
        ? JSON.parse(body || '{}')
        : Object.fromEntries(new URLSearchParams(body));
      calls.push({ method, params });
      const answer =
        method === 'auth.test'
          ? {
              ok: true,
              url: 'https://smoke.slack.com/',
              team: 'smoke',
              user: 'isvc-doctor',
              team_id: 'T0SMOKE',
              user_id: 'U0BOT',
              bot_id: 'B0BOT',
            }
          : method.startsWith('chat.')
            ? { ok: true, channel: params.channel, ts: nextTs() }
            : { ok: false, error: 'unknown_method' };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, calls, url: `http://127.0.0.1:${server.address().port}/api/` }),
    ),
  );
}

async function redisUrl() {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  const redis = await startDeployedRedis(randomBytes(16).toString('hex'));
  cleanups.push(() => redis.stop());
  const probe = redis.probe();
  if (probe.status !== 0)
    throw new Error(`the Redis readiness probe of deploy/redis fails: ${probe.stdout}${probe.stderr}`);
  log(
    `redis-server as deploy/redis runs it (ACL user isvc-doctor, default user off, maxmemory ${redis.args[redis.args.indexOf('--maxmemory') + 1]} noeviction, AOF), its readiness probe passes`,
  );
  return redis.url;
}

/**
 * promtool's findings on /metrics known and accepted (none today). A finding not listed fails the
 * smoke test, and so does a listed one that is gone (shrink the list).
 */
const KNOWN_METRIC_LINT = [];

function lintMetrics(text) {
  const promtool = process.env.PROMTOOL ?? 'promtool';
  const run = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (run.error)
    return log(
      `promtool check metrics: skipped (${promtool}: ${run.error.code ?? run.error.message}; .ci/run provides it)`,
    );
  const findings = `${run.stdout}${run.stderr}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const unexpected = findings.filter((f) => !KNOWN_METRIC_LINT.includes(f));
  const gone = KNOWN_METRIC_LINT.filter((f) => !findings.includes(f));
  if (unexpected.length > 0) throw new Error(`promtool check metrics: ${unexpected.join('; ')}`);
  if (gone.length > 0)
    throw new Error(`promtool check metrics no longer reports: ${gone.join('; ')} (remove it from KNOWN_METRIC_LINT)`);
  log(
    findings.length === 0
      ? 'promtool check metrics: clean'
      : `promtool check metrics: ${findings.length} known finding(s) (KNOWN_METRIC_LINT), nothing else`,
  );
}

async function get(url) {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

async function main() {
  if (!existsSync(path.join(repo, 'dist/src/cli/isvc-doctor.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const app = mkdtempSync(path.join(tmpdir(), 'isvc-doctor-smoke-'));
  cleanups.push(async () => rmSync(app, { recursive: true, force: true }));

  // the Dockerfile's runtime stage
  for (const f of ['package.json', 'package-lock.json']) cpSync(path.join(repo, f), path.join(app, f));
  log(`npm ci --omit=dev in ${app}`);
  const ci = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (ci.status !== 0)
    throw new Error(`npm ci --omit=dev failed: ${(ci.stderr || ci.stdout).trim().split('\n').slice(-5).join(' | ')}`);
  cpSync(path.join(repo, 'dist'), path.join(app, 'dist'), { recursive: true });
  // packages the lockfile marks dev-only (jest, typescript, swc…) must be absent
  const lock = JSON.parse(readFileSync(path.join(app, 'package-lock.json'), 'utf8'));
  const devOnly = Object.entries(lock.packages ?? {})
    .filter(([p, meta]) => p.startsWith('node_modules/') && meta.dev === true)
    .map(([p]) => p);
  const present = devOnly.filter((p) => existsSync(path.join(app, p)));
  if (present.length > 0) throw new Error(`dev dependencies were installed: ${present.slice(0, 5).join(', ')}`);
  for (const d of ['typescript', 'jest', '@swc/core'])
    if (existsSync(path.join(app, 'node_modules', d))) throw new Error(`${d} was installed`);
  log(
    `installed ${readdirSync(path.join(app, 'node_modules')).length} top-level packages, none of the ${devOnly.length} dev-only ones`,
  );

  const cli = path.join(app, 'dist/src/cli/isvc-doctor.js');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? app, NODE_ENV: 'production' };
  const help = spawnSync(process.execPath, [cli, '--help'], { cwd: app, encoding: 'utf8', env });
  if (help.status !== 0 || !help.stdout.includes('usage: isvc-doctor serve'))
    throw new Error(`isvc-doctor --help: exit ${help.status}: ${help.stderr.trim()}`);
  log('isvc-doctor --help: ok');

  const kubeconfig = path.join(app, 'simulator.kubeconfig');
  const sim = await start(
    'simulate',
    [cli, 'simulate', '--snapshot', SCENARIO, '--port', '0', '--kubeconfig-out', kubeconfig],
    { cwd: app, env },
    /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  log(`simulator: ${sim.match[1]}`);
  const slack = await startFakeSlack();
  cleanups.push(() => new Promise((r) => slack.server.close(r)));
  const redis = await redisUrl();

  const serveEnv = {
    ...env,
    SLACK_BOT_TOKEN: 'xoxb-smoke',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.url,
    REDIS_URL: redis,
    PORT: '0',
    METRICS_PORT: '0',
    KUBECONFIG: kubeconfig,
    SHUTDOWN_TIMEOUT_MS: '10000',
  };
  const t0 = Date.now();
  const serve = await start(
    'serve',
    [cli, 'serve', '--config', path.join(repo, 'deploy/base/config.yaml')],
    { cwd: app, env: serveEnv },
    /listening on (http:\/\/127\.0\.0\.1:\d+)\nmetrics on (http:\/\/127\.0\.0\.1:\d+)\n/,
  );
  const [base, ops] = [serve.match[1], serve.match[2]];
  log(`serve (deploy/base/config.yaml): Slack ${base}, metrics ${ops}, up in ${Date.now() - t0} ms`);
  if (!slack.calls.some((c) => c.method === 'auth.test')) throw new Error('serve did not call auth.test');

  const healthz = await get(`${ops}/healthz`);
  if (healthz.status !== 200) throw new Error(`/healthz answered ${healthz.status}`);
  let readyz;
  for (let i = 0; i < 20 && readyz?.status !== 200; i += 1) {
    readyz = await get(`${ops}/readyz`);
    if (readyz.status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  if (readyz.status !== 200) throw new Error(`/readyz answered ${readyz.status}: ${readyz.text}`);
  const metrics = await get(`${ops}/metrics`);
  if (metrics.status !== 200 || !metrics.text.includes('isvc_doctor_build_info{'))
    throw new Error(`/metrics answered ${metrics.status}`);
  for (const route of ['/metrics', '/healthz', '/readyz']) {
    const onSlackPort = await get(`${base}${route}`);
    if (onSlackPort.status !== 404)
      throw new Error(
        `Slack's port answered ${route} with ${onSlackPort.status}: an ingress for /slack/events would expose it`,
      );
  }
  log(
    "/healthz 200, /readyz 200 (Redis and the Kubernetes API answer), /metrics 200, on the metrics port; 404 on Slack's",
  );

  // a signed slash command, answered in its thread
  const body = new URLSearchParams({
    command: '/isvc',
    text: `diagnose ${TARGET}`,
    channel_id: 'C0SMOKE',
    user_id: 'U0SMOKE',
    team_id: 'T0SMOKE',
    response_url: 'http://127.0.0.1:1/none',
    trigger_id: '1.2.3',
  }).toString();
  const ts = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;
  const ack = await fetch(`${base}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': signature,
    },
    body,
  });
  await ack.text();
  if (ack.status !== 200) throw new Error(`the slash command got ${ack.status}`);
  const deadline = Date.now() + 20_000;
  const answered = () =>
    slack.calls.some(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.params.thread_ts &&
        String(c.params.text ?? '').includes('STORAGE_URI_NOT_FOUND'),
    );
  while (!answered()) {
    if (Date.now() > deadline)
      throw new Error(
        `no STORAGE_URI_NOT_FOUND reply in the thread; Slack calls: ${slack.calls.map((c) => c.method).join(', ')}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
  log(
    `/isvc diagnose ${TARGET}: root cause STORAGE_URI_NOT_FOUND posted in the thread (${slack.calls.filter((c) => c.method.startsWith('chat.')).length} chat calls)`,
  );

  // after a diagnosis, so that the labelled counters and the histogram have samples too
  lintMetrics((await get(`${ops}/metrics`)).text);

  const serveMs = await stop(serve.child, 'serve');
  const simMs = await stop(sim.child, 'simulate');
  if (/\n\s+at /.test(serve.stderr())) throw new Error(`serve printed a stack trace: ${serve.stderr()}`);
  if (/NOPERM|NOAUTH|WRONGPASS/.test(serve.stderr()))
    throw new Error(
      `Redis refused a command of the bot (the ACL user of deploy/redis lacks a permission): ${serve.stderr()}`,
    );
  log(`SIGTERM: serve exited 0 in ${serveMs} ms, simulate exited 0 in ${simMs} ms`);
}

main().then(
  async () => {
    await cleanup();
    log(`passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  },
  (error) => fail(error instanceof Error ? error.message : String(error)),
);
