/**
 * MCP over Streamable HTTP for shared agents (`serve` with MCP_PORT): POST /mcp, stateless (a server
 * and the SDK's transport per request), JSON answers. Every request carries `Authorization: Bearer
 * TOKEN` with one of the configured tokens (a Secret), else 401 before anything is read. The check
 * takes the same time whatever was sent: SHA-256 of the presented token against each token's digest
 * with timingSafeEqual, every token compared. Each token has its own budget of requests per minute
 * (a token bucket; 429 with Retry-After past it), so one agent cannot starve the others or the cluster.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { errorMessage } from '../core/error-message.js';

export interface McpToken {
  /** Who holds it (the requester of its proposals, the rate limit's key, the logs). */
  name: string;
  token: string;
}

export interface McpHttpOptions {
  port: number;
  host?: string;
  tokens: readonly McpToken[];
  /** Requests per minute per token (also the burst). */
  ratePerMinute: number;
  /** A server for one request, acting for the token's holder. */
  serverFor(holder: string): McpServer;
  now?: () => number;
  warn?: (message: string) => void;
}

export interface RunningMcpHttp {
  port: number;
  url: string;
  close(): Promise<void>;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The holder of the presented token, or null; compares against every token, in constant time each. */
export function tokenChecker(tokens: readonly McpToken[]): (authorization: string | undefined) => string | null {
  const known = tokens.map((t) => ({ name: t.name, digest: digest(t.token) }));
  return (authorization) => {
    const presented = digest(/^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '');
    let holder: string | null = null;
    for (const k of known) if (timingSafeEqual(presented, k.digest) && holder === null) holder = k.name;
    return authorization?.startsWith('Bearer ') ? holder : null;
  };
}

/** A token bucket per holder: `take` answers 0 (go) or the milliseconds until a request is allowed. */
export function rateLimiter(perMinute: number, now: () => number): (holder: string) => number {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perMinute / 60_000;
  return (holder) => {
    const t = now();
    const b = buckets.get(holder) ?? { tokens: perMinute, at: t };
    b.tokens = Math.min(perMinute, b.tokens + (t - b.at) * perMs);
    b.at = t;
    buckets.set(holder, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / perMs);
  };
}

function refuse(res: ServerResponse, status: number, code: string, message: string, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: `${code}: ${message}` }, id: null }));
}

export async function startMcpHttp(options: McpHttpOptions): Promise<RunningMcpHttp> {
  if (options.tokens.length === 0) throw new Error('MCP over HTTP needs at least one token');
  const holderOf = tokenChecker(options.tokens);
  const take = rateLimiter(options.ratePerMinute, options.now ?? Date.now);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return refuse(res, 404, 'NOT_FOUND', 'the MCP endpoint is /mcp');
    const holder = holderOf(req.headers.authorization);
    if (holder === null) {
      req.resume();
      return refuse(res, 401, 'UNAUTHORIZED', 'a bearer token of this server is required', {
        'www-authenticate': 'Bearer realm="isvc-doctor"',
      });
    }
    const wait = take(holder);
    if (wait > 0) {
      req.resume();
      return refuse(res, 429, 'RATE_LIMITED', `too many requests for this token; retry in ${Math.ceil(wait / 1000)}s`, {
        'retry-after': String(Math.ceil(wait / 1000)),
      });
    }
    const server = options.serverFor(holder);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.warn?.(`mcp: ${errorMessage(error)}`);
      if (!res.headersSent) refuse(res, 500, 'INTERNAL_ERROR', 'the request could not be served');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
