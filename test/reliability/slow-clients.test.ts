/**
 * Slow clients (part of the reliability suite), against a real `serve` child with its shipped read
 * deadlines (headers 5 s, body 5 s): ~1,000 unsigned connections kept open for the whole run, each
 * reopened as soon as the bot closes it, of four kinds: headers sent one byte a second; a fresh
 * timestamp, a junk signature and a body sent one byte a second; the same declaring 1 MiB and never
 * sending it; and a few that send most of 1 MiB at once, then 1 KiB every 100 ms (together more than the
 * 32 MiB body budget, and filling any room left in it). Meanwhile a signed slash command every 100 ms. Prints `reliability: legitimate refused N`,
 * `reliability: legitimate ack p99 ms N` and how long the bot let a slow socket live; asserts no
 * legitimate request refused, p99 ≤ 3 s, and every slow socket closed within its deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { FakeSlackApi } from '../support/fake-slack-api.js';
import { slashCommandBody } from '../support/slack-signing.js';
import { figure, postSigned, workDir, type ServeChild, startBotUnderTest, type BotUnderTest } from './serve-child.js';

const SECRET = `rel-slow-${randomUUID()}`;
/** The shipped defaults (config `http.headersTimeout`, `http.bodyTimeout`). */
const HEADERS_DEADLINE_MS = 5000;
const BODY_DEADLINE_MS = 5000;
/** Node looks for expired requests every 250 ms; the rest is a loaded 2-core machine's scheduling. */
const CLOSE_MARGIN_MS = 2000;
const SLOW_CONNECTIONS = 1000;
/** A signed slash command every 100 ms: the attack lasts 15 s, three rounds of its deadlines. */
const LEGITIMATE_REQUESTS = 150;
const LEGITIMATE_EVERY_MS = 100;
const MiB = 1024 * 1024;

type Kind = 'header trickle' | 'body trickle' | 'declared 1 MiB, never sent' | 'most of 1 MiB, then 10 KiB/s';
/** One in twenty fills the budget (50 × 960 KiB > 32 MiB); the rest hold sockets, not bytes. */
const kindOf = (i: number): Kind =>
  i % 20 === 0
    ? 'most of 1 MiB, then 10 KiB/s'
    : (['header trickle', 'body trickle', 'declared 1 MiB, never sent'] as const)[i % 3]!;

const dir = workDir('slow-clients');
let slack: FakeSlackApi;
let bot: ServeChild;

let started: BotUnderTest;

beforeAll(async () => {
  started = await startBotUnderTest({ dir, secret: SECRET, scenario: 'storage-uri-not-found' });
  ({ slack, bot } = started);
}, 120_000);

afterAll(() => started?.stop());

/** The unsigned slow connections: each kind's bytes, every socket's lifetime, reopened while `attacking`. */
class SlowClients {
  attacking = true;
  open = 0;
  peakOpen = 0;
  opened = 0;
  connectFailures = 0;
  /** How long the bot let each socket live, by kind. */
  readonly lifetimes = new Map<Kind, number[]>();
  private readonly trickling = new Set<net.Socket>();
  private readonly topping = new Set<net.Socket>();
  private readonly tickers: NodeJS.Timeout[];
  private readonly allClosed: Array<() => void> = [];

  constructor(private readonly port: number) {
    const kib = Buffer.alloc(1024, 'a');
    this.tickers = [
      setInterval(() => {
        for (const socket of this.trickling) socket.write('x');
      }, 1000),
      setInterval(() => {
        for (const socket of this.topping) socket.write(kib);
      }, 100),
    ];
  }

  /** Opens `count` connections, `batch` at a time (the listen backlog is 511). */
  async start(count: number, batch = 100): Promise<void> {
    for (let i = 0; i < count; i += batch) {
      for (let j = i; j < Math.min(count, i + batch); j += 1) this.connect(kindOf(j));
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private connect(kind: Kind): void {
    const socket = net.connect(this.port, '127.0.0.1');
    let connectedAt = 0;
    socket.on('error', () => undefined);
    socket.on('data', () => undefined); // the 408, if the bot sends one
    socket.once('connect', () => {
      connectedAt = performance.now();
      this.opened += 1;
      this.open += 1;
      this.peakOpen = Math.max(this.peakOpen, this.open);
      socket.write(this.firstBytes(kind));
      if (kind === 'header trickle' || kind === 'body trickle') this.trickling.add(socket);
      if (kind === 'most of 1 MiB, then 10 KiB/s') this.topping.add(socket);
    });
    socket.once('close', () => {
      this.trickling.delete(socket);
      this.topping.delete(socket);
      if (connectedAt === 0) this.connectFailures += 1;
      else {
        this.open -= 1;
        const list = this.lifetimes.get(kind) ?? [];
        list.push(performance.now() - connectedAt);
        this.lifetimes.set(kind, list);
      }
      if (this.attacking) this.connect(kind);
      else if (this.open === 0) for (const done of this.allClosed.splice(0)) done();
    });
  }

  private firstBytes(kind: Kind): string | Buffer {
    if (kind === 'header trickle') return 'POST /slack/events HTTP/1.1\r\nHost: bot\r\nX-Slow: ';
    // every body declares the cap: reserved per declared length, 32 of them filled the whole budget
    const head =
      'POST /slack/events HTTP/1.1\r\nHost: bot\r\n' +
      'Content-Type: application/x-www-form-urlencoded\r\n' +
      `X-Slack-Request-Timestamp: ${Math.floor(Date.now() / 1000)}\r\n` +
      `X-Slack-Signature: v0=${'0'.repeat(64)}\r\nContent-Length: ${MiB}\r\n\r\n`;
    if (kind !== 'most of 1 MiB, then 10 KiB/s') return head;
    return Buffer.concat([Buffer.from(head), Buffer.alloc(960 * 1024, 'a')]);
  }

  /** Stops reopening; resolves once every socket is closed (by the bot). */
  stop(): Promise<void> {
    this.attacking = false;
    for (const ticker of this.tickers) clearInterval(ticker);
    return this.open === 0 ? Promise.resolve() : new Promise((resolve) => this.allClosed.push(resolve));
  }

  longest(kind?: Kind): number {
    const all = kind ? (this.lifetimes.get(kind) ?? []) : [...this.lifetimes.values()].flat();
    return all.reduce((a, b) => Math.max(a, b), 0);
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

describe('slow and hanging unsigned connections', () => {
  it('never refuse a signed request nor hold a socket past its deadline', async () => {
    const port = Number(new URL(bot.url).port);
    const slow = new SlowClients(port);
    await slow.start(SLOW_CONNECTIONS);
    const acks: Array<{ status: number | 'error'; ms: number }> = [];
    const sends: Array<Promise<void>> = [];
    for (let i = 0; i < LEGITIMATE_REQUESTS; i += 1) {
      const body = slashCommandBody({ text: 'help', response_url: slack.responseUrl(randomUUID()) });
      sends.push(
        postSigned(bot.eventsUrl, SECRET, body).then(
          (r) => void acks.push({ status: r.status, ms: r.ms }),
          () => void acks.push({ status: 'error', ms: Number.POSITIVE_INFINITY }),
        ),
      );
      await new Promise((r) => setTimeout(r, LEGITIMATE_EVERY_MS));
    }
    await Promise.all(sends);
    const stopAsked = performance.now();
    await Promise.race([slow.stop(), new Promise((r) => setTimeout(r, HEADERS_DEADLINE_MS + BODY_DEADLINE_MS))]);
    const lastClosedAfterStop = performance.now() - stopAsked;

    const refused = acks.filter((a) => a.status !== 200);
    const p99 = percentile(
      acks.map((a) => a.ms),
      99,
    );
    figure('slow connections opened', slow.opened);
    figure('slow connections open at once (peak)', slow.peakOpen);
    figure('slow connections that could not connect', slow.connectFailures);
    figure('legitimate requests', acks.length);
    figure('legitimate refused', refused.length);
    figure('legitimate ack p99 ms', Math.round(p99));
    figure('legitimate ack max ms', Math.round(Math.max(...acks.map((a) => a.ms))));
    for (const kind of slow.lifetimes.keys())
      figure(`slow socket longest open ms (${kind})`, Math.round(slow.longest(kind)));
    figure('slow sockets still open after the attack', slow.open);

    expect(refused.map((a) => a.status)).toEqual([]);
    expect(acks.length).toBe(LEGITIMATE_REQUESTS);
    expect(p99).toBeLessThanOrEqual(3000);
    expect(slow.peakOpen).toBeGreaterThanOrEqual(0.9 * SLOW_CONNECTIONS);
    expect(slow.open).toBe(0);
    expect(lastClosedAfterStop).toBeLessThanOrEqual(HEADERS_DEADLINE_MS + CLOSE_MARGIN_MS);
    expect(slow.longest('header trickle')).toBeLessThanOrEqual(HEADERS_DEADLINE_MS + CLOSE_MARGIN_MS);
    for (const kind of ['body trickle', 'declared 1 MiB, never sent', 'most of 1 MiB, then 10 KiB/s'] as const)
      expect([kind, slow.longest(kind) <= BODY_DEADLINE_MS + CLOSE_MARGIN_MS]).toEqual([kind, true]);
    expect(bot.child.exitCode).toBeNull();
    expect(bot.guardLines()).toEqual([]);
  });
});
