/**
 * `rediss://` with an ACL user from the environment: a redis-server that listens on TLS only (a
 * self-signed certificate made here, trusted through NODE_EXTRA_CA_CERTS) and has its `default` user
 * off; `isvc-doctor serve` as a process of its own gets REDIS_URL=rediss://HOST:PORT plus
 * REDIS_USERNAME / REDIS_PASSWORD, and a diagnosis runs end to end through it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startListening, type ListeningProcess } from '../../bench/listening-process.js';
import { kubeConfigForServer } from '../../src/kube/client.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { textOf } from '../e2e/slack-harness.js';
import { ensureBuilt } from '../support/ensure-built.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { freePort } from '../support/redis-process.mjs';
import { postSignedCommand } from '../support/slack-signing.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const SECRET = 'tls-signing-secret';
let redis: ChildProcess;
let sim: RunningSimulator;
let slack: FakeSlackApi;
let bot: ListeningProcess;

beforeAll(async () => {
  ensureBuilt();
  const dir = tempDir('isvc-redis-tls-');
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  const ssl = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (ssl.status !== 0) throw new Error(`openssl: ${ssl.stderr}`);
  const port = (await freePort()) as number;
  redis = spawn(
    'redis-server',
    [
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--tls-cert-file',
      cert,
      '--tls-key-file',
      key,
      '--tls-ca-cert-file',
      cert,
      '--tls-auth-clients',
      'no',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--user',
      'default',
      'off',
      '--user',
      'bot',
      'on',
      '>s3cret',
      '~*',
      '&*',
      '+@all',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    redis.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    redis.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
  });
  slack = await startFakeSlackApi();
  sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found')) });
  const kubeconfig = path.join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeConfigForServer(sim.url).exportConfig());
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    SLACK_BOT_TOKEN: 'xoxb-tls',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    KUBECONFIG: kubeconfig,
    REDIS_URL: `rediss://127.0.0.1:${port}`,
    REDIS_USERNAME: 'bot',
    REDIS_PASSWORD: 's3cret',
    NODE_EXTRA_CA_CERTS: cert,
  };
  bot = await startListening(
    'serve over rediss://',
    process.execPath,
    [path.resolve('dist/src/cli/isvc-doctor.js'), 'serve'],
    env,
  );
}, 120_000);
afterAll(async () => {
  await bot?.stop();
  await sim?.close();
  await slack?.close();
  redis?.kill('SIGKILL');
  removeTempDirs();
});

it('diagnoses through a TLS-only Redis with the ACL user from the environment', async () => {
  expect(
    (
      await postSignedCommand(`${bot.url}/slack/events`, SECRET, {
        text: 'diagnose sklearn-iris -n default',
        channel_id: 'C0TLS',
      })
    ).status,
  ).toBe(200);
  await slack.waitFor(
    () =>
      slack
        .callsTo('chat.postMessage')
        .some(
          (c) => c.body.channel === 'C0TLS' && c.body.thread_ts && textOf(c.body).includes('STORAGE_URI_NOT_FOUND'),
        ),
    30_000,
  );
});
