/**
 * The health server of Socket Mode and worker-only processes answers probes and closes a client that
 * trickles its headers within its deadline (Node's default would hold the socket for 60 s).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type http from 'node:http';
import net from 'node:net';
import { startHealthServer } from '../../../src/bot/health-routes.js';
import { until } from '../../support/until.js';

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const ok = {
  path: '/healthz',
  method: 'GET' as const,
  handler: (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"ok"}');
  },
};

describe('startHealthServer', () => {
  it('answers its routes and 404 elsewhere', async () => {
    const started = await startHealthServer([ok], 0);
    server = started.server;
    expect((await fetch(`http://127.0.0.1:${started.port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${started.port}/nope`)).status).toBe(404);
  });

  it('closes a client that trickles its headers past the deadline, and still answers others', async () => {
    const started = await startHealthServer([ok], 0, 500);
    server = started.server;
    const socket = net.connect(started.port, '127.0.0.1');
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => !closed && socket.write('X-Slow: 1\r\n'), 100);
    try {
      // with Node's default headersTimeout (60 s) the socket would still be open here
      await until(() => closed, 'the trickling client closed', 10_000);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    expect((await fetch(`http://127.0.0.1:${started.port}/healthz`)).status).toBe(200);
  });
});
