/** Signs requests the way Slack does (v0 HMAC-SHA256 over "v0:timestamp:body"), for tests and the bench. */
import { signedHeaders } from '../../src/slack-standin/slack-signature.js';

export { slackSignature, signedHeaders } from '../../src/slack-standin/slack-signature.js';

export interface SlashCommandFields {
  text: string;
  channel_id?: string;
  user_id?: string;
  response_url?: string;
  command?: string;
  trigger_id?: string;
}

/** A slash command's form body as Slack sends it. */
export function slashCommandBody(fields: SlashCommandFields): string {
  return new URLSearchParams({
    token: 'deprecated-verification-token',
    team_id: 'T0TEST',
    team_domain: 'test',
    channel_id: fields.channel_id ?? 'C0GENERAL',
    channel_name: 'general',
    user_id: fields.user_id ?? 'U0ALICE',
    user_name: 'alice',
    command: fields.command ?? '/isvc',
    text: fields.text,
    api_app_id: 'A0APP',
    is_enterprise_install: 'false',
    response_url: fields.response_url ?? 'http://127.0.0.1:1/respond/none',
    trigger_id: fields.trigger_id ?? '1.2.3',
  }).toString();
}

/** POSTs a signed slash command to the bot; returns the status, body and how long the ack took. */
export async function postSignedCommand(
  eventsUrl: string,
  secret: string,
  fields: SlashCommandFields,
  options: { timestamp?: number; signature?: string } = {},
): Promise<{ status: number; body: string; ms: number }> {
  const body = slashCommandBody(fields);
  const headers = signedHeaders(secret, body, options.timestamp);
  if (options.signature) headers['x-slack-signature'] = options.signature;
  const started = performance.now();
  const res = await fetch(eventsUrl, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, body: text, ms: performance.now() - started };
}
