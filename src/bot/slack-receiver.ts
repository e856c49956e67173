/**
 * The HTTP front door of the Slack app (a Bolt Receiver): the cheap checks first, the ack as soon
 * as the request is known good, Bolt and the listeners only after it.
 *
 * Reading a request is bounded in time: its headers within `headersTimeoutMs` (else 408 and the
 * connection closed, by Node's own deadline), its body within `bodyTimeoutMs` after that (else 408,
 * closed). Slack sends its small bodies at once, so a client trickling bytes loses its socket in
 * seconds, and what bodies hold while arriving is counted per byte received; a body still arriving
 * after a second gives its bytes up to a prompt one when the budget is full, and its last 4 MiB are
 * kept for small bodies (body-budget.ts).
 *
 * POST /slack/events:
 * 1. both signature headers, the timestamp within five minutes either way (else 401), and a
 *    Content-Length under the cap (else 413), before a byte of the body is read;
 * 2. the body read up to the cap (413 past it; 408 too slow; 503 when the budget is full of prompt
 *    bodies), the signature verified over it (401);
 * 3. parsed to an object (a `payload=null`, JSON `null` or bad JSON is 400, never a crash);
 * 4. written to the request inbox (durable hand-off; a Slack retry of an event already taken is
 *    acked and dropped), then acked with 200; 503 when the post-ack queue is full;
 * 5. handed to Bolt after the ack (acked-requests.ts, shared with the Socket Mode front door).
 * Other paths are the custom routes (health), else 404.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App, Receiver } from '@slack/bolt';
import type { Logger } from '../core/logger.js';
import { errorMessage } from '../core/error-message.js';
import { AckedRequests } from './acked-requests.js';
import type { HealthRoute } from './health-routes.js';
import { parseSlackBody } from './parse-slack-body.js';
import { BodyBudget } from './body-budget.js';
import { readCappedBody } from './read-capped-body.js';
import type { RequestInbox } from './request-inbox.js';
import { checkSlackHeaders, verifySlackSignature } from './verify-slack-request.js';

export const SLACK_EVENTS_PATH = '/slack/events';
/** Slack's own payloads stay far below this (a message is at most 40,000 characters, 50 blocks). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** What all bodies being read at once may hold together. */
const BODY_BUDGET_BYTES = 32 * 1024 * 1024;
/** A body still arriving after this long gives its bytes up to a newer one when the budget is full. */
const SLOW_BODY_MS = 1000;
/** Of the budget, the last 4 MiB go only to bodies still under 64 KiB (Slack's are a few KiB). */
const SMALL_BODY_BYTES = 64 * 1024;
const RESERVED_FOR_SMALL_BYTES = 4 * 1024 * 1024;
/** How often Node looks for requests past their header or request deadline. */
const DEADLINE_CHECK_MS = 250;
export const DEFAULT_HEADERS_TIMEOUT_MS = 5000;
export const DEFAULT_BODY_TIMEOUT_MS = 5000;

export interface SlackReceiverOptions {
  signingSecret: string;
  routes?: HealthRoute[];
  /** The durable hand-off (absent: requests are run from memory only). */
  inbox?: RequestInbox;
  maxBodyBytes?: number;
  /** A request's headers arrive within this long, ms (default 5000). */
  headersTimeoutMs?: number;
  /** Its body within this long once its headers are in, ms (default 5000). */
  bodyTimeoutMs?: number;
  /** Post-ack work: how many at once, how many may wait. */
  concurrency?: number;
  maxPending?: number;
  logger: Logger;
  now?: () => number;
}

export class SlackReceiver implements Receiver {
  private server: http.Server | null = null;
  private readonly requests: AckedRequests;
  private readonly budget: BodyBudget;
  private readonly maxBody: number;
  private readonly headersTimeoutMs: number;
  private readonly bodyTimeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: SlackReceiverOptions) {
    this.maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.now = options.now ?? Date.now;
    this.headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
    this.budget = new BodyBudget({
      limit: BODY_BUDGET_BYTES,
      slowAfterMs: SLOW_BODY_MS,
      smallBody: SMALL_BODY_BYTES,
      reservedForSmall: RESERVED_FOR_SMALL_BYTES,
    });
    this.requests = new AckedRequests({
      logger: options.logger,
      now: this.now,
      ...(options.inbox ? { inbox: options.inbox } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.maxPending !== undefined ? { maxPending: options.maxPending } : {}),
    });
  }

  init(app: App): void {
    this.requests.attach(app);
  }

  async start(port: number): Promise<http.Server> {
    const server = http.createServer(
      {
        headersTimeout: this.headersTimeoutMs,
        // the backstop of the whole request; the body's own deadline (readCappedBody) is the one that acts
        requestTimeout: this.headersTimeoutMs + this.bodyTimeoutMs,
        connectionsCheckingInterval: DEADLINE_CHECK_MS,
      },
      (req, res) => this.handle(req, res),
    );
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => resolve());
    });
    this.server = server;
    this.requests.start();
    return server;
  }

  /** Stops taking requests, lets the running work finish; what still waits stays in the inbox for another process. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
    }
    await this.requests.stop();
  }

  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    if (path === SLACK_EVENTS_PATH && req.method === 'POST') {
      void this.slackRequest(req, res).catch((error: unknown) => {
        this.options.logger.warn(`slack request: ${errorMessage(error)}`);
        if (!res.headersSent) refuse(req, res, 500, 'internal error');
      });
      return;
    }
    const route = this.options.routes?.find((r) => r.path === path && r.method === req.method);
    if (route) route.handler(req, res);
    else refuse(req, res, 404, 'not found');
  }

  private async slackRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const headers = checkSlackHeaders(req.headers, this.now());
    if (!headers.ok) return refuse(req, res, 401, headers.reason);
    const read = await readCappedBody(req, {
      maxBytes: this.maxBody,
      budget: this.budget,
      deadlineMs: this.bodyTimeoutMs,
    });
    if (!read.ok) {
      if (read.reason === 'aborted') return void req.destroy();
      if (read.reason === 'too large') return refuse(req, res, 413, `body over ${this.maxBody} bytes`);
      if (read.reason === 'too slow') return refuse(req, res, 408, 'body not sent in time');
      return refuse(req, res, 503, 'busy, try again');
    }
    if (!verifySlackSignature(this.options.signingSecret, headers.timestamp, headers.signature, read.body))
      return refuse(req, res, 401, 'bad signature');
    const parsed = parseSlackBody(read.body, req.headers['content-type']);
    if (!parsed.ok) return refuse(req, res, 400, parsed.reason);
    const body = parsed.body;
    if (body.type === 'url_verification')
      return answer(res, 200, JSON.stringify({ challenge: String(body.challenge ?? '') }), 'application/json');
    if (body.ssl_check !== undefined) return answer(res, 200, '');
    const retryNum = numberHeader(req.headers['x-slack-retry-num']);
    const taken = await this.requests.take(body, {
      ...(retryNum !== undefined ? { retryNum } : {}),
      ...retryReason(req),
    });
    if (taken.kind === 'busy') return refuse(req, res, 503, 'busy, try again');
    answer(res, 200, '');
    if (taken.kind === 'taken') taken.run();
  }
}

function numberHeader(value: string | string[] | undefined): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || !/^\d{1,6}$/.test(v)) return undefined;
  return Number(v);
}

function retryReason(req: http.IncomingMessage): { retryReason?: string } {
  const v = req.headers['x-slack-retry-reason'];
  const s = Array.isArray(v) ? v[0] : v;
  return s ? { retryReason: s.slice(0, 60) } : {};
}

function answer(res: http.ServerResponse, status: number, body: string, type = 'text/plain'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** An error answer; a body not read is not read: the connection is closed after the answer. */
function refuse(req: http.IncomingMessage, res: http.ServerResponse, status: number, reason: string): void {
  const unread = !req.complete;
  res.writeHead(status, { 'content-type': 'application/json', ...(unread ? { connection: 'close' } : {}) });
  res.end(JSON.stringify({ error: reason }));
  if (unread) res.once('finish', () => req.socket.destroySoon?.() ?? req.destroy());
}
