/**
 * Bodies take the shared budget per byte received, not per declared Content-Length: a request that
 * declares 1 MiB and never sends it holds nothing. A body still arriving after `slowAfterMs` gives
 * its bytes up to a newer one when the budget is full; one not whole by its deadline is 'too slow'.
 * The clock is injected and the deadline's timer faked: nothing here depends on wall time.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { BodyBudget } from '../../../src/bot/body-budget.js';
import { readCappedBody, type BodyRead } from '../../../src/bot/read-capped-body.js';

const MiB = 1024 * 1024;

/** A request whose body the test writes by hand. */
function request(contentLength?: number): PassThrough & IncomingMessage {
  const stream = new PassThrough() as PassThrough & IncomingMessage;
  Object.assign(stream, { headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) } });
  return stream;
}

const settled = async (p: Promise<BodyRead>): Promise<BodyRead | 'pending'> =>
  Promise.race([p, new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);

afterEach(() => {
  jest.useRealTimers();
});

describe('the body budget', () => {
  it('holds the bytes received, not the length declared: 40 stalled 1 MiB requests leave room for a real one', async () => {
    const budget = new BodyBudget({ limit: 32 * MiB, slowAfterMs: 1000, smallBody: MiB, reservedForSmall: 0 });
    const stalled = Array.from({ length: 40 }, () => request(MiB));
    const reads = stalled.map((req) => readCappedBody(req, { maxBytes: MiB, budget, deadlineMs: 60_000 }));
    for (const req of stalled) req.write(Buffer.alloc(10));
    await new Promise((r) => setImmediate(r));
    expect(budget.held).toBe(400);
    expect(budget.reading).toBe(40);

    const slack = request(100);
    const read = readCappedBody(slack, { maxBytes: MiB, budget, deadlineMs: 60_000 });
    slack.end(Buffer.alloc(100, 'a'));
    expect(await read).toEqual({ ok: true, body: Buffer.alloc(100, 'a') });
    expect(budget.held).toBe(400);

    for (const req of stalled) req.destroy();
    expect((await Promise.all(reads)).map((r) => r.ok)).toEqual(Array(40).fill(false));
    expect(budget.held).toBe(0);
  });

  it('refuses a byte that does not fit while every body holding the budget is young', async () => {
    const budget = new BodyBudget({ limit: 100, slowAfterMs: 1000, smallBody: MiB, reservedForSmall: 0, now: () => 0 });
    const first = request(80);
    const firstRead = readCappedBody(first, { maxBytes: MiB, budget, deadlineMs: 60_000 });
    first.write(Buffer.alloc(80));
    const second = request(30);
    const secondRead = readCappedBody(second, { maxBytes: MiB, budget, deadlineMs: 60_000 });
    second.end(Buffer.alloc(30));
    expect(await secondRead).toEqual({ ok: false, reason: 'busy' });
    expect(await settled(firstRead)).toBe('pending');
    first.end(Buffer.alloc(0));
    expect((await firstRead).ok).toBe(true);
    expect(budget.held).toBe(0);
  });

  it('evicts the oldest slow body to make room for a new one, never a young one', async () => {
    let now = 0;
    const budget = new BodyBudget({
      limit: 100,
      slowAfterMs: 1000,
      smallBody: MiB,
      reservedForSmall: 0,
      now: () => now,
    });
    const slow = request(90);
    const slowRead = readCappedBody(slow, { maxBytes: MiB, budget, deadlineMs: 60_000 });
    slow.write(Buffer.alloc(50));
    now = 900;
    const young = request(90);
    const youngRead = readCappedBody(young, { maxBytes: MiB, budget, deadlineMs: 60_000 });
    young.write(Buffer.alloc(40));
    await new Promise((r) => setImmediate(r));
    expect(budget.held).toBe(90);

    now = 1500; // the first body has been arriving for 1.5 s, the second for 0.6 s
    const prompt = request(30);
    const promptRead = readCappedBody(prompt, { maxBytes: MiB, budget, deadlineMs: 60_000 });
    prompt.end(Buffer.alloc(30, 'b'));
    expect(await promptRead).toEqual({ ok: true, body: Buffer.alloc(30, 'b') });
    expect(await slowRead).toEqual({ ok: false, reason: 'too slow' });
    expect(await settled(youngRead)).toBe('pending');
    expect(budget.held).toBe(40);
    young.end(Buffer.alloc(50));
    expect((await youngRead).ok).toBe(true);
    expect(budget.held).toBe(0);
  });
});

describe('the share kept for small bodies', () => {
  it('keeps the last of the budget for small bodies: large ones arriving together cannot take it', async () => {
    const budget = new BodyBudget({ limit: 100, slowAfterMs: 1000, smallBody: 20, reservedForSmall: 30, now: () => 0 });
    const first = request(90);
    const firstRead = readCappedBody(first, { maxBytes: MiB, budget, deadlineMs: 60_000 });
    first.write(Buffer.alloc(60));
    await new Promise((r) => setImmediate(r));
    const second = request(90);
    const secondRead = readCappedBody(second, { maxBytes: MiB, budget, deadlineMs: 60_000 });
    second.write(Buffer.alloc(15));
    second.write(Buffer.alloc(15));
    // 60 + 15 fit; the next 15 take the second body past 20 bytes and the total past 100 - 30
    expect(await secondRead).toEqual({ ok: false, reason: 'busy' });
    expect(budget.held).toBe(60);
    const small = request(20);
    const smallRead = readCappedBody(small, { maxBytes: MiB, budget, deadlineMs: 60_000 });
    small.end(Buffer.alloc(20, 'c'));
    expect(await smallRead).toEqual({ ok: true, body: Buffer.alloc(20, 'c') });
    first.end();
    expect((await firstRead).ok).toBe(true);
    expect(budget.held).toBe(0);
  });
});

describe('the body deadline', () => {
  it('gives up a body not whole by its deadline as too slow and returns its bytes', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    const budget = new BodyBudget({ limit: MiB, slowAfterMs: 1000, smallBody: MiB, reservedForSmall: 0, now: () => 0 });
    const trickle = request(1000);
    const read = readCappedBody(trickle, { maxBytes: MiB, budget, deadlineMs: 5000 });
    trickle.write(Buffer.alloc(1));
    jest.advanceTimersByTime(4999);
    expect(await settled(read)).toBe('pending');
    expect(budget.held).toBe(1);
    jest.advanceTimersByTime(1);
    expect(await read).toEqual({ ok: false, reason: 'too slow' });
    expect(budget.held).toBe(0);
    expect(budget.reading).toBe(0);
  });

  it('still refuses a declared length over the cap without reading a byte', async () => {
    const budget = new BodyBudget({ limit: MiB, slowAfterMs: 1000, smallBody: MiB, reservedForSmall: 0 });
    expect(await readCappedBody(request(MiB + 1), { maxBytes: MiB, budget, deadlineMs: 5000 })).toEqual({
      ok: false,
      reason: 'too large',
    });
    expect(budget.reading).toBe(0);
  });
});
