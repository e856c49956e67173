/**
 * The last gate before Slack: every text a message carries (the notification text, each block's
 * mrkdwn / plain_text, a link's URL) goes through the redaction engine once more, whatever built
 * it. Renderers already receive redacted findings; this catches any other text that reaches a
 * post (an error's message, a name, a status URL). Button values, action ids and block ids are
 * the bot's own and pass as they are.
 */
import { redactText } from '../logs/redact.js';
import type { Block, SlackMessage } from './slack-message.js';
import type { SlackPoster } from './slack-poster.js';

/** Keys whose string values are the bot's own identifiers, never shown text. */
const OWN_KEYS = new Set(['type', 'value', 'action_id', 'block_id', 'style']);

function redactStrings(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return OWN_KEYS.has(key) ? value : redactText(value);
  if (Array.isArray(value)) return value.map((v) => redactStrings(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, k)]));
  return value;
}

export function redactMessage(message: SlackMessage): SlackMessage {
  return { ...message, text: redactText(message.text), blocks: message.blocks.map((b) => redactStrings(b) as Block) };
}

export function redactingPoster(poster: SlackPoster): SlackPoster {
  return {
    post: (channel, message, threadTs, options) => poster.post(channel, redactMessage(message), threadTs, options),
    update: (channel, ts, message) => poster.update(channel, ts, redactMessage(message)),
    ephemeral: (channel, user, message, threadTs) => poster.ephemeral(channel, user, redactMessage(message), threadTs),
    ...(poster.delete ? { delete: poster.delete.bind(poster) } : {}),
  };
}
