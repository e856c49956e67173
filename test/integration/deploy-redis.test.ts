/**
 * Redis as deploy/redis runs it (scripts/redis-as-deployed.mjs starts redis-server with the
 * StatefulSet's args and a password for the Secret), reached with the REDIS_URL deploy/base builds:
 * the bot's BullMQ queue works through the ACL user, nobody gets in without the password, the user
 * cannot run the dangerous commands, the eviction policy and maxmemory are in force, and the
 * readiness probe tells a wrong password from a right one.
 */
import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { startDeployedRedis, type DeployedRedis } from '../../scripts/redis-as-deployed.mjs';

const password = randomBytes(16).toString('hex');
let redis: DeployedRedis;

beforeAll(async () => {
  redis = await startDeployedRedis(password);
});

afterAll(async () => {
  await redis?.stop();
});

async function reply(url: string, ...command: [string, ...Array<string | number>]): Promise<string> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // a failed AUTH at connect arrives as an 'error' event, and the command then fails on the closed connection
  let authError: Error | undefined;
  client.on('error', (error: Error) => (authError ??= error));
  try {
    await client.connect();
    return String(await client.call(...command));
  } catch (error) {
    return (authError ?? (error as Error)).message.split(' ')[0]!;
  } finally {
    client.disconnect();
  }
}

it('runs a BullMQ job end to end as the ACL user', async () => {
  const connection = { url: redis.url };
  const queue = new Queue('deploy-redis', { connection });
  const events = new QueueEvents('deploy-redis', { connection });
  const worker = new Worker('deploy-redis', async (job) => `done ${job.data.n}`, { connection });
  try {
    await events.waitUntilReady();
    const job = await queue.add('one', { n: 1 });
    expect(await job.waitUntilFinished(events, 10_000)).toBe('done 1');
    expect((await queue.getJobCounts('completed')).completed).toBe(1);
  } finally {
    await worker.close();
    await events.close();
    await queue.close();
  }
});

it('lets nobody in without the password, and the user not run dangerous commands', async () => {
  const url = new URL(redis.url);
  expect(await reply(redis.url, 'ping')).toBe('PONG');
  const anonymous = new URL(url.toString());
  anonymous.username = '';
  anonymous.password = '';
  expect(await reply(anonymous.toString(), 'ping')).toBe('NOAUTH');
  const wrong = new URL(url.toString());
  wrong.password = 'not-the-password';
  expect(await reply(wrong.toString(), 'ping')).toBe('WRONGPASS');
  for (const command of [
    ['flushall'],
    ['config', 'get', 'maxmemory'],
    ['keys', '*'],
    ['acl', 'list'],
    ['replicaof', 'no', 'one'],
    ['client', 'list'],
  ] as Array<[string, ...string[]]>)
    expect(await reply(redis.url, ...command)).toBe('NOPERM');
});

it('has maxmemory set, so that noeviction takes effect, and the append-only file on', async () => {
  const info = await reply(redis.url, 'info', 'memory');
  expect(info).toMatch(/^maxmemory_policy:noeviction\r?$/m);
  const maxmemory = Number(/^maxmemory:(\d+)\r?$/m.exec(info)![1]);
  const configured = redis.args[redis.args.indexOf('--maxmemory') + 1]!;
  expect(maxmemory).toBe(Number(/^(\d+)mb$/.exec(configured)![1]) * 2 ** 20);
  expect(await reply(redis.url, 'info', 'persistence')).toMatch(/^aof_enabled:1\r?$/m);
});

it('has a readiness probe that fails on a wrong password', () => {
  expect(redis.probe()).toEqual(expect.objectContaining({ status: 0, stdout: expect.stringContaining('PONG') }));
  expect(redis.probe({ REDISCLI_AUTH: 'not-the-password' }).status).not.toBe(0);
});
