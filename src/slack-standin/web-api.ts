/**
 * The Web API methods the bot uses, answered as Slack answers them: chat.postMessage / update /
 * postEphemeral / delete, conversations.info, users.info, usergroups.users.list, auth.test,
 * apps.connections.open, views.open / update. Messages go through Slack's limits (`invalid_blocks`,
 * `msg_too_long`) and channel membership (`not_in_channel`); in strict mode an unknown channel is
 * `channel_not_found` and an unknown ts `message_not_found`.
 */
import { checkMessage, checkViewBlocks } from './block-kit-limits.js';
import type { MessageStore } from './message-store.js';

export const BOT_IDENTITY = {
  userId: 'U0BOT',
  botId: 'B0BOT',
  teamId: 'T0TEST',
  team: 'isvc-playground',
  name: 'isvc-doctor',
} as const;

export interface WebApiContext {
  store: MessageStore;
  strict: boolean;
  userGroups: Map<string, string[]>;
  socketUrl: () => string;
}

type Answer = Record<string, unknown>;

export function answerWebApi(ctx: WebApiContext, method: string, body: Record<string, any>): Answer {
  switch (method) {
    case 'auth.test':
      return {
        ok: true,
        url: 'https://isvc-playground.slack.com/',
        team: BOT_IDENTITY.team,
        user: BOT_IDENTITY.name,
        team_id: BOT_IDENTITY.teamId,
        user_id: BOT_IDENTITY.userId,
        bot_id: BOT_IDENTITY.botId,
      };
    case 'chat.postMessage':
      return postMessage(ctx, body);
    case 'chat.update':
      return updateMessage(ctx, body);
    case 'chat.postEphemeral':
      return postEphemeral(ctx, body);
    case 'chat.getPermalink':
      return {
        ok: true,
        channel: body.channel,
        permalink: `https://isvc-playground.slack.com/archives/${String(body.channel)}/p${String(body.message_ts).replace('.', '')}`,
      };
    case 'chat.delete':
      return ctx.store.delete(String(body.channel), String(body.ts)) || !ctx.strict
        ? { ok: true, channel: body.channel, ts: body.ts }
        : { ok: false, error: 'message_not_found' };
    case 'conversations.info': {
      const channel = ctx.store.channel(String(body.channel ?? ''));
      return channel
        ? { ok: true, channel: { id: channel.id, name: channel.name, is_channel: true, is_member: channel.botMember } }
        : { ok: false, error: 'channel_not_found' };
    }
    case 'conversations.history':
    case 'conversations.replies':
      return readMessages(ctx, method, body);
    case 'users.info': {
      const person = ctx.store.people.get(String(body.user ?? ''));
      return person
        ? {
            ok: true,
            user: {
              id: person.id,
              name: person.name,
              real_name: person.name,
              profile: { display_name: person.name, title: person.title ?? '' },
            },
          }
        : { ok: false, error: 'user_not_found' };
    }
    case 'usergroups.users.list': {
      const users = ctx.userGroups.get(String(body.usergroup ?? ''));
      return users ? { ok: true, users } : { ok: false, error: 'no_such_subteam' };
    }
    case 'apps.connections.open':
      return { ok: true, url: ctx.socketUrl() };
    case 'views.open':
    case 'views.push':
      return openView(ctx, body);
    case 'views.update':
      return updateView(ctx, body);
    default:
      return ctx.strict ? { ok: false, error: 'unknown_method' } : { ok: true };
  }
}

function refusal(ctx: WebApiContext, body: Record<string, any>): Answer | null {
  const channel = ctx.store.channel(String(body.channel ?? ''));
  if (!channel) return { ok: false, error: 'channel_not_found' };
  if (!channel.botMember) return { ok: false, error: 'not_in_channel' };
  const limits = checkMessage(body);
  return limits
    ? {
        ok: false,
        error: limits.error,
        errors: limits.messages,
        response_metadata: { messages: limits.messages.map((m) => `[ERROR] ${m}`) },
      }
    : null;
}

function postMessage(ctx: WebApiContext, body: Record<string, any>): Answer {
  const refused = refusal(ctx, body);
  if (refused) return refused;
  const threadTs = typeof body.thread_ts === 'string' && body.thread_ts ? body.thread_ts : undefined;
  if (threadTs && ctx.strict && !ctx.store.get(body.channel, threadTs)) return { ok: false, error: 'thread_not_found' };
  const metadata = isMetadata(body.metadata) ? { metadata: body.metadata } : {};
  const message = ctx.store.add({
    channel: body.channel,
    user: BOT_IDENTITY.userId,
    bot: true,
    text: String(body.text ?? ''),
    ...blocksOf(body),
    ...(threadTs ? { threadTs } : {}),
    ...metadata,
  });
  return {
    ok: true,
    channel: message.channel,
    ts: message.ts,
    message: {
      type: 'message',
      ts: message.ts,
      text: message.text,
      thread_ts: threadTs,
      bot_id: BOT_IDENTITY.botId,
      user: BOT_IDENTITY.userId,
    },
  };
}

function updateMessage(ctx: WebApiContext, body: Record<string, any>): Answer {
  const refused = refusal(ctx, body);
  if (refused) return refused;
  const existing = ctx.store.get(body.channel, String(body.ts));
  if (!existing)
    return ctx.strict
      ? { ok: false, error: 'message_not_found' }
      : { ok: true, channel: body.channel, ts: body.ts, text: body.text };
  if (!existing.bot) return { ok: false, error: 'cant_update_message' };
  ctx.store.update(body.channel, existing.ts, { text: String(body.text ?? ''), ...blocksOf(body) });
  return { ok: true, channel: body.channel, ts: existing.ts, text: body.text };
}

function postEphemeral(ctx: WebApiContext, body: Record<string, any>): Answer {
  const refused = refusal(ctx, body);
  if (refused) return refused;
  if (!body.user) return { ok: false, error: 'user_not_found' };
  const threadTs = typeof body.thread_ts === 'string' && body.thread_ts ? body.thread_ts : undefined;
  const message = ctx.store.add({
    channel: body.channel,
    user: BOT_IDENTITY.userId,
    bot: true,
    text: String(body.text ?? ''),
    ...blocksOf(body),
    ephemeralTo: String(body.user),
    ...(threadTs ? { threadTs } : {}),
  });
  return { ok: true, message_ts: message.ts };
}

function openView(ctx: WebApiContext, body: Record<string, any>): Answer {
  if (!body.trigger_id) return { ok: false, error: 'invalid_trigger_id' };
  const view = (typeof body.view === 'object' && body.view) || {};
  const problems = checkViewBlocks(view.blocks ?? []);
  if (problems.length > 0) return { ok: false, error: 'invalid_arguments', response_metadata: { messages: problems } };
  const user = String(body.trigger_id).split(':')[0] ?? '';
  const open = ctx.store.openView(user, view);
  return { ok: true, view: { id: open.id, ...view } };
}

function updateView(ctx: WebApiContext, body: Record<string, any>): Answer {
  const open = ctx.store.openViews.get(String(body.view_id ?? ''));
  if (!open) return { ok: false, error: 'not_found' };
  ctx.store.closeView(open.id);
  const reopened = ctx.store.openView(open.user, body.view ?? {});
  return { ok: true, view: { id: reopened.id, ...(body.view ?? {}) } };
}

function blocksOf(body: Record<string, any>): { blocks?: unknown[] } {
  return Array.isArray(body.blocks) ? { blocks: body.blocks } : {};
}

function isMetadata(v: unknown): v is { event_type: string; event_payload: Record<string, unknown> } {
  const m = v as { event_type?: unknown; event_payload?: unknown } | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.event_type === 'string' &&
    typeof m.event_payload === 'object' &&
    m.event_payload !== null
  );
}

/** conversations.history (top-level messages) and conversations.replies (a thread, its parent first), newest first / oldest first as Slack orders them. */
function readMessages(ctx: WebApiContext, method: string, body: Record<string, any>): Answer {
  const channel = ctx.store.channel(String(body.channel ?? ''));
  if (!channel) return { ok: false, error: 'channel_not_found' };
  if (!channel.botMember) return { ok: false, error: 'not_in_channel' };
  const oldest = Number(body.oldest ?? 0);
  const withMetadata = body.include_all_metadata === true || body.include_all_metadata === 'true';
  const thread = method === 'conversations.replies' ? String(body.ts ?? '') : null;
  const picked = ctx.store
    .all()
    .filter((m) => m.channel === channel.id && !m.ephemeralTo && Number(m.ts) >= oldest)
    .filter((m) => (thread === null ? !m.threadTs || m.threadTs === m.ts : m.ts === thread || m.threadTs === thread))
    .sort((a, b) => Number(a.ts) - Number(b.ts));
  const ordered = thread === null ? picked.reverse() : picked;
  const limit = Math.max(1, Math.min(1000, Number(body.limit ?? 100)));
  const messages = ordered.slice(0, limit).map((m) => ({
    type: 'message',
    ts: m.ts,
    text: m.text,
    user: m.user,
    ...(m.bot ? { bot_id: BOT_IDENTITY.botId } : {}),
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
  }));
  return { ok: true, messages, has_more: ordered.length > limit };
}
