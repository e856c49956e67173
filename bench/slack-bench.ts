/**
 * Slack bot benchmark (`npm run bench`): the real bot, started as `isvc-doctor serve` in a process
 * of its own as in production (Bolt HTTP receiver, handlers, BullMQ on a throwaway Redis, workers,
 * diagnosis engine), against the fake Slack Web API and the simulator at 20 ms a request, both
 * in this process with the load generator. Prints ack latency p50/p99 for 200 concurrent signed commands (target: p99 under
 * 100 ms), and command → first thread reply latency.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { startSimulator } from '../src/simulator/simulator.js';
import { loadSnapshot } from '../src/snapshot/load-snapshot.js';
import { startFakeSlackApi } from '../test/support/fake-slack-api.js';
import { postSignedCommand, signedHeaders, slashCommandBody } from '../test/support/slack-signing.js';

const SECRET = 'bench-signing-secret';
const CONCURRENT = 200;
const REPLY_RUNS = 20;
const LATENCY_MS = 20;
const ACK_TARGET_MS = 100;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function benchSlack(): Promise<void> {
  // Loaded only when needed: with REDIS_URL set, the bench uses that Redis.
  const redis = process.env.REDIS_URL ? null : await (await import('../test/support/redis-server.js')).startRedisServer();
  const redisUrl = process.env.REDIS_URL ?? redis!.url;
  const slack = await startFakeSlackApi();
  const sim = await startSimulator({ snapshot: await loadSnapshot(path.resolve('test/scenarios/storage-uri-not-found')), latencyMs: LATENCY_MS });
  const queueName = `bench-${randomUUID().slice(0, 8)}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'isvc-slack-bench-'));
  writeFileSync(path.join(dir, 'config.yaml'), `queue: {concurrency: 4, name: ${queueName}}\n`);
  await sim.writeKubeconfig(path.join(dir, 'kubeconfig'));
  const bot = await startServe(dir, { SLACK_BOT_TOKEN: 'xoxb-bench', SLACK_SIGNING_SECRET: SECRET, SLACK_API_URL: slack.apiUrl, REDIS_URL: redisUrl, PORT: '0', KUBECONFIG: path.join(dir, 'kubeconfig') });
  const events = `${bot.url}/slack/events`;
  try {
    for (let i = 0; i < 10; i += 1) await postSignedCommand(events, SECRET, { text: 'help', response_url: slack.responseUrl('warm') });

    // 1. Ack latency: 200 signed commands at once, each for its own InferenceService. Bodies are
    // signed beforehand and sent with node:http, so the load generator's own cost stays out of it.
    // A first burst warms the server up (JIT, connections), as a running bot is; the second is measured.
    const burst = async (round: string) => {
      const prepared = Array.from({ length: CONCURRENT }, (_, i) => {
        const body = slashCommandBody({ text: `diagnose model-${round}-${i}`, channel_id: `C${round}${i}`, user_id: `U${i}` });
        return { body, headers: { ...signedHeaders(SECRET, body), 'content-length': String(Buffer.byteLength(body)) } };
      });
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
      const results = await Promise.all(prepared.map((p) => timedPost(events, p.body, p.headers, agent)));
      await slack.waitFor((calls) => calls.filter((c) => c.method === 'chat.update' && String(c.body.channel).startsWith(`C${round}`) && /^[❌✅❔]/u.test(String(c.body.text))).length >= CONCURRENT, 120_000);
      agent.destroy();
      return results;
    };
    await burst('warm');
    const acks = await burst('ack');
    const bad = acks.filter((a) => a.status !== 200).length;
    const ms = acks.map((a) => a.ms);
    const p99 = percentile(ms, 99);
    console.log(`slack bot: ack latency for ${CONCURRENT} concurrent signed /isvc diagnose commands (target: p99 < ${ACK_TARGET_MS} ms)`);
    console.log(
      `  p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms, non-200: ${bad}  (p99 / target ${(p99 / ACK_TARGET_MS).toFixed(2)})${p99 < ACK_TARGET_MS ? '' : '  OVER TARGET'}`,
    );

    // 2. Command → first thread reply, one at a time.
    const replies: number[] = [];
    for (let i = 0; i < REPLY_RUNS; i += 1) {
      const channel = `CREPLY${i}`;
      const started = performance.now();
      await postSignedCommand(events, SECRET, { text: 'diagnose sklearn-iris', channel_id: channel });
      await slack.waitFor((calls) => calls.some((c) => c.method === 'chat.postMessage' && c.body.channel === channel && c.body.thread_ts), 30_000);
      replies.push(performance.now() - started);
      await slack.waitFor((calls) => calls.some((c) => c.method === 'chat.update' && c.body.channel === channel && /^[❌✅❔]/u.test(String(c.body.text))), 30_000);
    }
    console.log(`slack bot: command → first thread reply (root cause), simulator at ${LATENCY_MS} ms a request, ${REPLY_RUNS} runs`);
    console.log(`  p50 ${percentile(replies, 50).toFixed(0)} ms, p99 ${percentile(replies, 99).toFixed(0)} ms`);
  } finally {
    bot.child.kill('SIGTERM');
    const queue = new Queue(queueName, { connection: { url: redisUrl } });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
    await slack.close();
    await redis?.stop();
  }
}

/** `isvc-doctor serve --config DIR/config.yaml` from the build next to this file; resolves when it listens. */
async function startServe(dir: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli/isvc-doctor.js');
  const child = spawn(process.execPath, [cli, 'serve', '--config', path.join(dir, 'config.yaml')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 20 s: ${stderr.slice(-500)}`)), 20_000);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr.slice(-500)}`)));
    child.stdout!.on('data', (c: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(c.toString());
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, child });
      }
    });
  });
}

/** One POST timed from the moment its bytes are handed to the socket to the end of the response. */
function timedPost(url: string, body: string, headers: Record<string, string>, agent: http.Agent): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    const started = performance.now();
    req.end(body);
  });
}
