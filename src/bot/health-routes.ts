/**
 * `GET /healthz` (the process is up), `GET /readyz` (Redis answers and the Kubernetes API answers)
 * and `GET /metrics` (Prometheus). Served as Bolt custom routes in HTTP mode, or by a small HTTP
 * server of their own (Socket Mode, worker-only processes).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { VersionApi, type KubeConfig } from '@kubernetes/client-node';
import { errorMessage } from '../core/error-message.js';
import type { BotMetrics } from './metrics.js';

export interface HealthDeps {
  pingRedis(): Promise<void>;
  /** null: a process without cluster credentials (the multi-cluster web role): no Kubernetes check. */
  kubeConfig: KubeConfig | null;
  metrics: BotMetrics;
  /** The clock of the readiness cache (default Date.now). */
  now?: () => number;
}

export interface HealthRoute {
  path: string;
  method: 'GET';
  handler(req: http.IncomingMessage, res: http.ServerResponse): void;
}

const KUBE_TIMEOUT_MS = 2000;
const CACHE_MS = 2000;

function deadline<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

function firstLine(error: unknown): string {
  return errorMessage(error, 200);
}

/** Readiness checks, cached for a moment so probes and scrapers do not hammer Redis or the API server. */
export function readinessChecker(deps: HealthDeps): () => Promise<{ ready: boolean; checks: Record<string, string> }> {
  let cached: { at: number; value: Promise<{ ready: boolean; checks: Record<string, string> }> } | undefined;
  const version = deps.kubeConfig?.makeApiClient(VersionApi) ?? null;
  const run = async () => {
    const [redis, kube] = await Promise.allSettled([
      deadline(KUBE_TIMEOUT_MS, deps.pingRedis()),
      version ? deadline(KUBE_TIMEOUT_MS, version.getCode()) : Promise.resolve(null),
    ]);
    const checks = {
      redis: redis.status === 'fulfilled' ? 'ok' : `unavailable: ${firstLine(redis.reason)}`,
      kubernetes: !version
        ? 'not used (no cluster credentials)'
        : kube.status === 'fulfilled'
          ? 'ok'
          : `unreachable: ${firstLine(kube.reason)}`,
    };
    return { ready: redis.status === 'fulfilled' && kube.status === 'fulfilled', checks };
  };
  const now = deps.now ?? Date.now;
  return () => {
    if (!cached || now() - cached.at > CACHE_MS) cached = { at: now(), value: run() };
    return cached.value;
  };
}

export function healthRoutes(deps: HealthDeps): HealthRoute[] {
  const readiness = readinessChecker(deps);
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  return [
    { path: '/healthz', method: 'GET', handler: (_req, res) => json(res, 200, { status: 'ok' }) },
    {
      path: '/readyz',
      method: 'GET',
      handler: (_req, res) => {
        void readiness().then((r) =>
          json(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', checks: r.checks }),
        );
      },
    },
    {
      path: '/metrics',
      method: 'GET',
      handler: (_req, res) => {
        void deps.metrics.registry.metrics().then(
          (text) => {
            res.writeHead(200, { 'content-type': deps.metrics.registry.contentType });
            res.end(text);
          },
          (error: unknown) => json(res, 500, { error: firstLine(error) }),
        );
      },
    },
  ];
}

/** A probe or a scraper sends its request at once: its headers within this long, the whole request within twice it. */
export const HEALTH_HEADERS_TIMEOUT_MS = 5000;

/**
 * The routes on a server of their own (Socket Mode, worker-only processes); resolves once listening.
 * Reading a request is bounded in time, as on the Slack front door: a client trickling its headers
 * is answered 408 and its connection closed after HEALTH_HEADERS_TIMEOUT_MS instead of Node's 60 s.
 */
export async function startHealthServer(
  routes: HealthRoute[],
  port: number,
  headersTimeoutMs = HEALTH_HEADERS_TIMEOUT_MS,
): Promise<{ server: http.Server; port: number }> {
  const options: http.ServerOptions = {
    headersTimeout: headersTimeoutMs,
    requestTimeout: 2 * headersTimeoutMs,
    connectionsCheckingInterval: Math.min(250, headersTimeoutMs),
  };
  const server = http.createServer(options, (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes.find((r) => r.path === path && r.method === req.method);
    if (route) route.handler(req, res);
    else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not found"}');
    }
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return { server, port: (server.address() as AddressInfo).port };
}
