/**
 * response_url replies as Slack applies them: `ephemeral` (the default) to the one who acted,
 * `in_channel` as a bot message, `replace_original` / `delete_original` on the message whose
 * button was clicked. A URL is good for 30 minutes and 5 replies; unknown ids are only recorded.
 */
import { randomBytes } from 'node:crypto';
import { checkMessage } from './block-kit-limits.js';
import { BOT_IDENTITY } from './web-api.js';
import type { MessageStore } from './message-store.js';

export interface ResponseTarget {
  channel: string;
  user: string;
  /** The message whose button was clicked (block_actions). */
  messageTs?: string;
  threadTs?: string;
}

interface Entry extends ResponseTarget {
  uses: number;
  expires: number;
}

const MAX_USES = 5;
const TTL_MS = 30 * 60_000;

export class ResponseUrls {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly store: MessageStore) {}

  /** A new id for a response URL aimed at `target`. */
  register(target: ResponseTarget): string {
    const id = randomBytes(9).toString('base64url');
    this.entries.set(id, { ...target, uses: 0, expires: Date.now() + TTL_MS });
    return id;
  }

  /** Applies a reply; the answer Slack gives (`{ok: true}` or an error). */
  reply(id: string, body: Record<string, any>): Record<string, unknown> {
    const entry = this.entries.get(id);
    if (!entry) return { ok: true };
    if (entry.uses >= MAX_USES || Date.now() > entry.expires) return { ok: false, error: 'expired_url' };
    entry.uses += 1;
    if (body.delete_original === true || body.delete_original === 'true') {
      if (entry.messageTs) this.store.delete(entry.channel, entry.messageTs);
      return { ok: true };
    }
    const limits = checkMessage(body);
    if (limits) return { ok: false, error: limits.error, response_metadata: { messages: limits.messages } };
    const content = {
      text: String(body.text ?? ''),
      ...(Array.isArray(body.blocks) ? { blocks: body.blocks as unknown[] } : {}),
    };
    const replace = body.replace_original === true || body.replace_original === 'true';
    if (replace && entry.messageTs && this.store.get(entry.channel, entry.messageTs)) {
      this.store.update(entry.channel, entry.messageTs, content);
      return { ok: true };
    }
    const threadTs = typeof body.thread_ts === 'string' ? body.thread_ts : entry.threadTs;
    const inChannel = body.response_type === 'in_channel';
    this.store.add({
      channel: entry.channel,
      user: BOT_IDENTITY.userId,
      bot: true,
      ...content,
      ...(inChannel ? {} : { ephemeralTo: entry.user }),
      ...(threadTs ? { threadTs } : {}),
    });
    return { ok: true };
  }
}
