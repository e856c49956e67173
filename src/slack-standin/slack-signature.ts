/** Signs requests the way Slack does: v0 HMAC-SHA256 over "v0:timestamp:body" with the signing secret. */
import { createHmac } from 'node:crypto';

export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export function signedHeaders(
  secret: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
  contentType = 'application/x-www-form-urlencoded',
): Record<string, string> {
  return {
    'content-type': contentType,
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(secret, timestamp, body),
  };
}
