/**
 * A BullMQ connection's late start-up failure after close() (close removes every listener, then the
 * rejected start-up is emitted as 'error') must not become an uncaught exception: a worker closing
 * while Redis is gone (test/e2e/shutdown-redis-down.test.ts) killed the whole test process with it.
 * The late emit is made here by hand on the real Queue's and Worker's connections after they closed.
 */
import { afterAll, expect, it } from '@jest/globals';
import { Queue, Worker } from 'bullmq';
import type { EventEmitter } from 'node:events';
import { dropLateConnectionErrors } from '../../src/queue/late-connection-errors.js';

const connection = { url: process.env.REDIS_URL!, maxRetriesPerRequest: null };
const opened: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close().catch(() => undefined)));
});

const lateError = (owner: object, key: 'connection' | 'blockingConnection') => () =>
  (owner as Record<string, EventEmitter>)[key]!.emit('error', new Error('read ECONNRESET'));

it('drops the late error of a closed Queue and Worker, and throws it without the guard (the why)', async () => {
  const guarded = dropLateConnectionErrors(new Queue('late-errors-guarded', { connection }));
  const worker = dropLateConnectionErrors(
    new Worker('late-errors-guarded', async () => undefined, { connection, autorun: false }),
  );
  const plain = new Queue('late-errors-plain', { connection });
  opened.push(guarded, worker, plain);
  guarded.on('error', () => undefined);
  worker.on('error', () => undefined);
  plain.on('error', () => undefined);
  await Promise.all([guarded.close(), worker.close(), plain.close()]);
  expect(lateError(guarded, 'connection')).not.toThrow();
  expect(lateError(worker, 'connection')).not.toThrow();
  expect(lateError(worker, 'blockingConnection')).not.toThrow();
  expect(lateError(plain, 'connection')).toThrow('read ECONNRESET');
});

it('still forwards a connection error to an open Queue', async () => {
  const queue = dropLateConnectionErrors(new Queue('late-errors-open', { connection }));
  opened.push(queue);
  const seen: string[] = [];
  queue.on('error', (e) => seen.push(e.message));
  await queue.waitUntilReady();
  lateError(queue, 'connection')();
  expect(seen).toEqual(['read ECONNRESET']);
});
