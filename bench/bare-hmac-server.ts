/**
 * The anchor of the ack row, run as a process of its own: a bare Node HTTP server that does what
 * acknowledging a slash command needs and nothing more (read the body, check the Slack v0 HMAC
 * signature and its timestamp, parse the form, answer 200). Prints `listening on URL`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const secret = process.env.SLACK_SIGNING_SECRET ?? '';

function verified(body: string, timestamp: string | undefined, signature: string | undefined): boolean {
  if (!timestamp || !signature || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(`v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const ok = verified(
      body,
      req.headers['x-slack-request-timestamp'] as string | undefined,
      req.headers['x-slack-signature'] as string | undefined,
    );
    if (ok) new URLSearchParams(body).get('command');
    res.writeHead(ok ? 200 : 401).end();
  });
});

server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
