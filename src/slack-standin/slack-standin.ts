/**
 * A local stand-in for Slack's Web API on node:http, for the playground, tests and benchmarks. Point
 * the bot at it with SLACK_API_URL = `standin.apiUrl`. It keeps the workspace (channels, people,
 * messages, threads, edits, ephemeral messages, modals: `store`), applies Slack's limits and errors,
 * serves response_url POSTs (`/respond/ID`), records every call (method, parsed body, Authorization
 * header, answer) and can be told to answer 429 with Retry-After for the next N calls, or a Slack
 * error for a channel.
 *
 * `startSlackStandin()` listens on its own loopback port; `createSlackStandin({ baseUrl })` returns
 * one whose `handle(req, res)` a bigger server (the playground's) mounts under /api/ and /respond/.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MessageStore } from './message-store.js';
import { parseRequestBody } from './request-body.js';
import { ResponseUrls } from './response-urls.js';
import { answerWebApi, type WebApiContext } from './web-api.js';

export interface RecordedCall {
  /** Web API method ("chat.postMessage"), or "response_url" for a POST to a response URL. */
  method: string;
  body: Record<string, any>;
  auth: string | undefined;
  /** For response_url posts: the id in the URL. */
  responseId?: string;
  status: number;
  /** What the stand-in answered. */
  response?: Record<string, any>;
  at: number;
}

export interface StandinOptions {
  /** Strict Slack: unknown channels, messages and methods are errors, the bot is only in the channels set up. Default false (tests: every channel exists). */
  strict?: boolean;
  /** When set, a call without this bot token gets `not_authed` / `invalid_auth`. */
  token?: string;
  /** How many recorded calls to keep (oldest dropped); default all. */
  keepCalls?: number;
}

export interface SlackStandin {
  apiUrl: string;
  baseUrl: string;
  calls: RecordedCall[];
  store: MessageStore;
  responses: ResponseUrls;
  callsTo(method: string): RecordedCall[];
  /** A response_url the stand-in records POSTs to (and applies, when the id was registered). */
  responseUrl(id: string): string;
  /** The next `count` Web API calls (of `method`, when given) get 429 with Retry-After: seconds. */
  rateLimitNext(count: number, retryAfterSeconds?: number, method?: string): void;
  /** chat.* calls for this channel answer {ok: false, error}. */
  failChannel(channel: string, error: string): void;
  /** Every call of `method` answers {ok: false, error} (e.g. conversations.history, missing_scope). */
  failMethod(method: string, error: string): void;
  /** Answers after `ms` (every call). */
  setLatency(ms: number): void;
  /**
   * The next `count` chat.postMessage calls fail the way a Slack outage does: `before` answers 500
   * without posting; `after` posts, then answers 500; `drop` posts, then closes the connection
   * without an answer (as a timeout looks to the bot).
   */
  failPosts(count: number, mode: 'before' | 'after' | 'drop'): void;
  /** Socket Mode: the URL apps.connections.open hands out. */
  setSocketUrl(url: string): void;
  /** usergroups.users.list answers these members for the group (unknown groups: no_such_subteam). */
  setUserGroup(id: string, users: string[]): void;
  /** Called after each recorded call. */
  onCall(listener: (call: RecordedCall) => void): () => void;
  waitFor(predicate: (calls: RecordedCall[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Serves a request under /api/ or /respond/; false when the path is not the stand-in's. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  reset(): void;
  close(): Promise<void>;
}

export function createSlackStandin(options: StandinOptions & { baseUrl: string }): SlackStandin {
  const calls: RecordedCall[] = [];
  const store = new MessageStore({ autoJoin: !options.strict });
  const responses = new ResponseUrls(store);
  let limited: Array<{ retryAfter: number; method?: string }> = [];
  const failing = new Map<string, string>();
  const failingMethods = new Map<string, string>();
  let latency = 0;
  const postFaults: Array<'before' | 'after' | 'drop'> = [];
  let socketUrl = 'ws://127.0.0.1:1/';
  const listeners = new Set<(call: RecordedCall) => void>();
  const ctx: WebApiContext = {
    store,
    strict: Boolean(options.strict),
    userGroups: new Map(),
    socketUrl: () => socketUrl,
  };

  const record = (call: RecordedCall) => {
    calls.push(call);
    if (options.keepCalls && calls.length > options.keepCalls) calls.splice(0, calls.length - options.keepCalls);
    for (const l of [...listeners]) l(call);
  };

  const authError = (auth: string | undefined): string | null => {
    if (!options.token) return null;
    if (!auth) return 'not_authed';
    return auth === `Bearer ${options.token}` ? null : 'invalid_auth';
  };

  const respond = (
    method: string,
    responseId: string | undefined,
    body: Record<string, any>,
    auth: string | undefined,
    res: http.ServerResponse,
  ) => {
    const call: RecordedCall = {
      method,
      body,
      auth,
      status: 200,
      at: Date.now(),
      ...(responseId !== undefined ? { responseId } : {}),
    };
    const limit = responseId !== undefined ? -1 : limited.findIndex((l) => !l.method || l.method === method);
    if (limit >= 0) {
      const l = limited[limit]!;
      limited = limited.filter((_, i) => i !== limit);
      call.status = 429;
      call.response = { ok: false, error: 'ratelimited' };
      record(call);
      return reply(res, 429, call.response, { 'retry-after': String(l.retryAfter) });
    }
    const fault = method === 'chat.postMessage' ? postFaults.shift() : undefined;
    if (fault === 'before') {
      call.status = 500;
      call.response = { ok: false, error: 'internal_error' };
      record(call);
      return reply(res, 500, call.response);
    }
    const channel = typeof body.channel === 'string' ? body.channel : undefined;
    const denied = responseId !== undefined ? null : authError(auth);
    if (denied) call.response = { ok: false, error: denied };
    else if (failingMethods.has(method)) call.response = { ok: false, error: failingMethods.get(method) };
    else if (channel && method.startsWith('chat.') && failing.has(channel))
      call.response = { ok: false, error: failing.get(channel) };
    else call.response = responseId !== undefined ? responses.reply(responseId, body) : answerWebApi(ctx, method, body);
    if (fault) {
      // posted (the call stays recorded with status 200: the message is there), but the bot hears an error
      record(call);
      if (fault === 'drop') return void res.socket?.destroy();
      return reply(res, 500, { ok: false, error: 'internal_error' });
    }
    record(call);
    reply(res, 200, call.response);
  };

  const baseUrl = options.baseUrl.replace(/\/$/, '');
  return {
    apiUrl: `${baseUrl}/api/`,
    baseUrl,
    calls,
    store,
    responses,
    callsTo: (method) => calls.filter((c) => c.method === method && c.status === 200),
    responseUrl: (id) => `${baseUrl}/respond/${id}`,
    rateLimitNext: (count, retryAfterSeconds = 1, method) => {
      for (let i = 0; i < count; i += 1) limited.push({ retryAfter: retryAfterSeconds, ...(method ? { method } : {}) });
    },
    failChannel: (channel, error) => failing.set(channel, error),
    failMethod: (method, error) => failingMethods.set(method, error),
    failPosts: (count, mode) => {
      for (let i = 0; i < count; i += 1) postFaults.push(mode);
    },
    setLatency: (ms) => {
      latency = ms;
    },
    setSocketUrl: (url) => {
      socketUrl = url;
    },
    setUserGroup: (id, users) => {
      ctx.userGroups.set(id, users);
    },
    onCall: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waitFor: (predicate, timeoutMs = 20_000) => waitForCalls(calls, listeners, predicate, timeoutMs),
    handle: (req, res) => {
      const url = new URL(req.url ?? '/', 'http://standin');
      const response = /^\/respond\/([^/]+)$/.exec(url.pathname);
      if (!response && !url.pathname.startsWith('/api/')) return false;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = parseRequestBody(Buffer.concat(chunks).toString('utf8'), req.headers['content-type']);
        const method = response ? 'response_url' : url.pathname.replace(/^\/api\//, '');
        const go = () => respond(method, response?.[1], body, req.headers.authorization, res);
        if (latency > 0) setTimeout(go, latency);
        else go();
      });
      return true;
    },
    reset: () => {
      calls.length = 0;
      limited = [];
      postFaults.length = 0;
      failing.clear();
      failingMethods.clear();
    },
    close: async () => undefined,
  };
}

/** A stand-in on its own loopback port. */
export async function startSlackStandin(options: StandinOptions = {}): Promise<SlackStandin> {
  let standin: SlackStandin | undefined;
  const server = http.createServer((req, res) => {
    if (!standin?.handle(req, res)) reply(res, 404, { ok: false, error: 'unknown_method' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  standin = createSlackStandin({ ...options, baseUrl: `http://127.0.0.1:${port}` });
  standin.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standin;
}

function reply(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function waitForCalls(
  calls: RecordedCall[],
  listeners: Set<(call: RecordedCall) => void>,
  predicate: (calls: RecordedCall[]) => boolean,
  timeoutMs: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (predicate(calls)) return resolve();
    const check = () => {
      if (!predicate(calls)) return;
      clearTimeout(timer);
      listeners.delete(check);
      resolve();
    };
    const timer = setTimeout(() => {
      listeners.delete(check);
      reject(
        new Error(
          `Slack stand-in: condition not met within ${timeoutMs} ms; calls: ${calls.map((c) => `${c.method}(${c.status})`).join(', ')}`,
        ),
      );
    }, timeoutMs);
    listeners.add(check);
  });
}
