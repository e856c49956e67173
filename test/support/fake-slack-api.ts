/**
 * A fake Slack Web API on node:http for tests and benchmarks. It records every call (method, body
 * parsed from form or JSON, the Authorization header), serves auth.test, chat.postMessage (with a ts),
 * chat.update, chat.postEphemeral, conversations.info, usergroups.users.list, apps.connections.open (Socket Mode) and
 * response_url POSTs, and can be told to answer 429 with Retry-After for the next N calls, or a Slack
 * error for a channel. Point the bot at it with SLACK_API_URL = `fake.apiUrl`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  /** Web API method ("chat.postMessage"), or "response_url" for a POST to a response URL. */
  method: string;
  body: Record<string, any>;
  auth: string | undefined;
  /** For response_url posts: the id in the URL. */
  responseId?: string;
  status: number;
  /** What the fake answered. */
  response?: Record<string, any>;
  at: number;
}

export interface FakeSlackApi {
  apiUrl: string;
  baseUrl: string;
  calls: RecordedCall[];
  callsTo(method: string): RecordedCall[];
  /** A response_url the fake records POSTs to. */
  responseUrl(id: string): string;
  /** The next `count` Web API calls (of `method`, when given) get 429 with Retry-After: seconds. */
  rateLimitNext(count: number, retryAfterSeconds?: number, method?: string): void;
  /** chat.* calls for this channel answer {ok: false, error}. */
  failChannel(channel: string, error: string): void;
  /** Answers after `ms` (every call). */
  setLatency(ms: number): void;
  /** Socket Mode: the URL apps.connections.open hands out. */
  setSocketUrl(url: string): void;
  /** usergroups.users.list answers these members for the group (unknown groups: no_such_subteam). */
  setUserGroup(id: string, users: string[]): void;
  waitFor(predicate: (calls: RecordedCall[]) => boolean, timeoutMs?: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

function parseBody(raw: string, contentType: string | undefined): Record<string, any> {
  if (!raw) return {};
  if (contentType?.includes('application/json')) {
    try {
      return JSON.parse(raw) as Record<string, any>;
    } catch {
      return { _raw: raw };
    }
  }
  const out: Record<string, any> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    out[k] = /^[[{]/.test(v) ? safeJson(v) : v;
  }
  return out;
}

function safeJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

export async function startFakeSlackApi(): Promise<FakeSlackApi> {
  const calls: RecordedCall[] = [];
  let limited: Array<{ retryAfter: number; method?: string }> = [];
  const failing = new Map<string, string>();
  let latency = 0;
  let socketUrl = 'ws://127.0.0.1:1/';
  let tsCounter = 0;
  const waiters = new Set<() => void>();
  const userGroups = new Map<string, string[]>();

  const reply = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const answer = (method: string, body: Record<string, any>): Record<string, unknown> => {
    const channel = typeof body.channel === 'string' ? body.channel : undefined;
    if (channel && method.startsWith('chat.') && failing.has(channel)) return { ok: false, error: failing.get(channel) };
    switch (method) {
      case 'auth.test':
        return { ok: true, url: 'https://test.slack.com/', team: 'test', user: 'isvc-doctor', team_id: 'T0TEST', user_id: 'U0BOT', bot_id: 'B0BOT' };
      case 'chat.postMessage': {
        tsCounter += 1;
        const ts = `${1_700_000_000 + tsCounter}.${String(tsCounter).padStart(6, '0')}`;
        return { ok: true, channel, ts, message: { ts, text: body.text, thread_ts: body.thread_ts } };
      }
      case 'chat.update':
        return { ok: true, channel, ts: body.ts, text: body.text };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: `${1_700_000_000}.999999` };
      case 'conversations.info':
        return { ok: true, channel: { id: channel, name: 'general', is_member: true } };
      case 'apps.connections.open':
        return { ok: true, url: socketUrl };
      case 'usergroups.users.list': {
        const users = userGroups.get(String(body.usergroup ?? ''));
        return users ? { ok: true, users } : { ok: false, error: 'no_such_subteam' };
      }
      default:
        return { ok: true };
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = parseBody(Buffer.concat(chunks).toString('utf8'), req.headers['content-type']);
      const respond = () => {
        const response = url.pathname.match(/^\/respond\/([^/]+)$/);
        const method = response ? 'response_url' : url.pathname.replace(/^\/api\//, '');
        const record: RecordedCall = { method, body, auth: req.headers.authorization, status: 200, at: Date.now(), ...(response ? { responseId: response[1] } : {}) };
        const limit = response ? -1 : limited.findIndex((l) => !l.method || l.method === method);
        if (limit >= 0) {
          const l = limited[limit]!;
          limited = limited.filter((_, i) => i !== limit);
          record.status = 429;
          calls.push(record);
          reply(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(l.retryAfter) });
        } else {
          record.response = response ? { ok: true } : answer(method, body);
          calls.push(record);
          reply(res, 200, record.response);
        }
        for (const w of [...waiters]) w();
      };
      if (latency > 0) setTimeout(respond, latency);
      else respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  return {
    apiUrl: `${baseUrl}/api/`,
    baseUrl,
    calls,
    callsTo: (method) => calls.filter((c) => c.method === method && c.status === 200),
    responseUrl: (id) => `${baseUrl}/respond/${id}`,
    rateLimitNext: (count, retryAfterSeconds = 1, method) => {
      for (let i = 0; i < count; i += 1) limited.push({ retryAfter: retryAfterSeconds, ...(method ? { method } : {}) });
    },
    failChannel: (channel, error) => failing.set(channel, error),
    setLatency: (ms) => {
      latency = ms;
    },
    setSocketUrl: (url) => {
      socketUrl = url;
    },
    setUserGroup: (id, users) => {
      userGroups.set(id, users);
    },
    waitFor: (predicate, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (predicate(calls)) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`fake Slack: condition not met within ${timeoutMs} ms; calls: ${calls.map((c) => `${c.method}(${c.status})`).join(', ')}`));
        }, timeoutMs);
        const check = () => {
          if (predicate(calls)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
      }),
    reset: () => {
      calls.length = 0;
      limited = [];
      failing.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
