/**
 * The post-ack queue: work pushed on its own starts at once, while work pushed in a burst waits
 * until the pushes stop (the acks of a burst get the CPU first), then runs.
 */
import { expect, it } from '@jest/globals';
import { createPostAckQueue } from '../../../src/bot/post-ack-queue.js';

const ticks = async (n: number) => {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
};

it('starts work pushed on its own at once, without waiting for the burst window', async () => {
  const queue = createPostAckQueue({ quietMs: 60_000, maxDelayMs: 60_000 });
  let started = false;
  const done = queue.push(async () => {
    started = true;
  });
  await ticks(3);
  expect(started).toBe(true);
  await done;
});

it('holds the rest of a burst while pushes keep coming, and runs all of it once they stop', async () => {
  const queue = createPostAckQueue({ quietMs: 20, maxDelayMs: 60_000 });
  const started: number[] = [];
  const all = [0, 1, 2, 3].map((i) => queue.push(async () => void started.push(i)));
  await ticks(3);
  // the first push of the burst found the queue idle; the others wait for the pushes to stop
  expect(started).toEqual([0]);
  await Promise.all(all);
  expect(started.sort()).toEqual([0, 1, 2, 3]);
});
