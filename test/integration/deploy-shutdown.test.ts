/**
 * Graceful shutdown and request-id logs of a real `isvc-doctor serve` process (built dist/, as the
 * image runs it), against the cluster simulator (with latency, so a diagnosis is in flight), the
 * fake Slack Web API and the test Redis:
 * - SIGTERM while a diagnosis runs: the job finishes and its answer reaches the thread, the
 *   process exits 0, and the JSON log lines of the slash command and of the job carry one request id;
 * - SIGTERM with a shutdown deadline shorter than the diagnosis: the job is cancelled and handed
 *   back to the queue (not left active), the process exits 0 soon after the deadline, and the next
 *   `serve` answers the thread.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { loadSnapshot } from '../../src/snapshot/load-snapshot.js';
import { ensureBuilt } from '../support/ensure-built.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { postSignedCommand } from '../support/slack-signing.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { until } from '../support/until.js';

const CLI = path.resolve('dist/src/cli/isvc-doctor.js');
const SECRET = 'shutdown-signing-secret';

interface Serve {
  child: ChildProcess;
  url: string;
  /** /metrics, /healthz, /readyz: METRICS_PORT. */
  metricsUrl: string;
  stderr(): string;
  logs(): Array<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let sim: RunningSimulator;
let slack: FakeSlackApi;
let dir: string;
const children: ChildProcess[] = [];

async function startServe(queueName: string, env: Record<string, string> = {}): Promise<Serve> {
  const config = path.join(dir, `${queueName}.yaml`);
  writeFileSync(config, `namespaces: [default]\nqueue: {name: ${queueName}, attempts: 3, backoffMs: 100}\n`);
  const child = spawn(process.execPath, [CLI, 'serve', '--config', config], {
    env: {
      PATH: process.env.PATH!,
      SLACK_BOT_TOKEN: 'xoxb-shutdown',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: process.env.REDIS_URL!,
      PORT: '0',
      METRICS_PORT: '0',
      KUBECONFIG: path.join(dir, 'kubeconfig'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const [url, metricsUrl] = await new Promise<[string, string]>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\nmetrics on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m) resolve([m[1]!, m[2]!]);
    });
    void exited.then(({ code }) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  const logs = () =>
    err
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, url, metricsUrl, stderr: () => err, logs, exited };
}

const answered = (channel: string) =>
  slack
    .callsTo('chat.postMessage')
    .some(
      (c) => c.body.channel === channel && c.body.thread_ts && String(c.body.text).includes('STORAGE_URI_NOT_FOUND'),
    );

beforeAll(async () => {
  ensureBuilt();
  dir = tempDir('isvc-doctor-shutdown-');
  slack = await startFakeSlackApi();
  sim = await startSimulator({
    snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found')),
    latencyMs: 400,
  });
  await sim.writeKubeconfig(path.join(dir, 'kubeconfig'));
}, 120_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sim?.close();
  await slack?.close();
  removeTempDirs();
});

it('SIGTERM during a diagnosis: the job finishes, its answer is posted, exit 0; one request id from command to job', async () => {
  const serve = await startServe(`shutdown-${randomUUID().slice(0, 8)}`);
  const res = await postSignedCommand(`${serve.url}/slack/events`, SECRET, {
    text: 'diagnose sklearn-iris -n default',
    channel_id: 'C0SHUT1',
    user_id: 'U0ALICE',
  });
  expect(res.status).toBe(200);
  await until(() => serve.logs().some((l) => l.msg === 'job started'), 'the job to start');
  serve.child.kill('SIGTERM');
  const { code } = await serve.exited;
  expect(code).toBe(0);
  expect(answered('C0SHUT1')).toBe(true);

  const logs = serve.logs();
  const request = logs.find((l) => l.msg === 'slack request')!;
  expect(request).toMatchObject({
    level: 'info',
    type: 'command',
    command: '/isvc diagnose sklearn-iris -n default',
    user: 'U0ALICE',
    channel: 'C0SHUT1',
  });
  expect(request.requestId).toMatch(/^r-[0-9a-f]{12}$/);
  const done = logs.find((l) => l.msg === 'job done')!;
  expect(done).toMatchObject({
    requestId: request.requestId,
    kind: 'diagnose',
    target: 'default/sklearn-iris',
    channel: 'C0SHUT1',
  });
  expect(logs.map((l) => l.msg)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^shutdown: no new Slack requests/), 'shutdown: done']),
  );
  expect(serve.stderr()).not.toMatch(/\n\s+at /);
}, 60_000);

it('SIGTERM past the deadline: the running job goes back to the queue, exit 0, and the next serve answers it', async () => {
  const name = `shutdown-${randomUUID().slice(0, 8)}`;
  const first = await startServe(name, { SHUTDOWN_TIMEOUT_MS: '200' });
  await postSignedCommand(`${first.url}/slack/events`, SECRET, {
    text: 'diagnose sklearn-iris -n default',
    channel_id: 'C0SHUT2',
    user_id: 'U0ALICE',
  });
  await until(() => first.logs().some((l) => l.msg === 'job started'), 'the job to start');
  first.child.kill('SIGTERM');
  expect((await first.exited).code).toBe(0);
  // the deadline, not the job's end, stopped it: no answer, and the job was cancelled (no wall-clock bound needed)
  expect(answered('C0SHUT2')).toBe(false);
  expect(first.logs().some((l) => l.msg === 'job failed' && String(l.error).startsWith('cancelled'))).toBe(true);

  const queue = new Queue(name, { connection: { url: process.env.REDIS_URL! } });
  try {
    const counts = await queue.getJobCounts('active', 'waiting', 'delayed', 'completed');
    expect(counts.active).toBe(0);
    expect((counts.waiting ?? 0) + (counts.delayed ?? 0)).toBe(1);
  } finally {
    await queue.close();
  }
  const second = await startServe(name);
  await until(() => answered('C0SHUT2'), 'the answer from the next serve', 30_000);
  await until(() => second.logs().some((l) => l.msg === 'job done'), 'the job to complete');
  // the operations metrics: diagnoses by root cause, durations, queue depth and age, remediations, Slack errors
  const metrics = await (await fetch(`${second.metricsUrl}/metrics`)).text();
  expect(metrics).toContain('isvc_doctor_diagnoses_total{outcome="reported",root_cause="STORAGE_URI_NOT_FOUND"} 1');
  expect(metrics).toMatch(/^isvc_doctor_diagnosis_duration_seconds_count 1$/m);
  expect(metrics).toMatch(/^isvc_doctor_queue_jobs\{state="active"\} 0$/m);
  expect(metrics).toMatch(/^isvc_doctor_queue_jobs\{state="completed"\} 1$/m);
  expect(metrics).toMatch(/^isvc_doctor_queue_oldest_waiting_seconds 0$/m);
  expect(metrics).toContain('# TYPE isvc_doctor_remediations_total counter');
  expect(metrics).toContain('# TYPE isvc_doctor_slack_api_errors_total counter');
  second.child.kill('SIGTERM');
  expect((await second.exited).code).toBe(0);
}, 90_000);
