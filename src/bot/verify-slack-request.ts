/**
 * Slack's request signature (v0 HMAC-SHA256 over "v0:timestamp:body" with the signing secret), in
 * two steps so the cheap one runs before any body is read: `checkSlackHeaders` (both headers there,
 * the timestamp within five minutes of now, in the past or in the future), then `verifySlackSignature`
 * over the body once it is read (constant-time compare).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack's replay window: a request stamped further than this from now, either way, is refused. */
export const SLACK_TIMESTAMP_WINDOW_SECONDS = 5 * 60;

export type HeaderCheck =
  | { ok: true; timestamp: string; signature: string }
  | { ok: false; reason: 'missing headers' | 'bad timestamp' | 'stale timestamp' | 'future timestamp' };

export function checkSlackHeaders(headers: Record<string, string | string[] | undefined>, nowMs: number): HeaderCheck {
  const timestamp = one(headers['x-slack-request-timestamp']);
  const signature = one(headers['x-slack-signature']);
  if (!timestamp || !signature) return { ok: false, reason: 'missing headers' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'bad timestamp' };
  const skew = Number(timestamp) - Math.floor(nowMs / 1000);
  if (skew < -SLACK_TIMESTAMP_WINDOW_SECONDS) return { ok: false, reason: 'stale timestamp' };
  if (skew > SLACK_TIMESTAMP_WINDOW_SECONDS) return { ok: false, reason: 'future timestamp' };
  return { ok: true, timestamp, signature };
}

export function verifySlackSignature(secret: string, timestamp: string, signature: string, body: Buffer): boolean {
  const expected = Buffer.from(
    `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
