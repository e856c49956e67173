/**
 * What Slack sends an app, signed with its signing secret and POSTed to its request URL: slash
 * commands (form body, a response_url), Events API `app_mention` callbacks (JSON; the person's
 * message is stored in the channel first, as Slack shows it), `block_actions` (button clicks and
 * menu choices, with the message, container and a response_url) and `view_submission`. A slash
 * command's ack body, when it has one, is shown as Slack shows it (ephemeral unless `in_channel`).
 */
import { randomBytes } from 'node:crypto';
import { signedHeaders } from './slack-signature.js';
import type { SlackStandin } from './slack-standin.js';
import { BOT_IDENTITY } from './web-api.js';

export interface BotEndpoint {
  /** The app's request URL, e.g. http://127.0.0.1:3000/slack/events */
  eventsUrl: string;
  signingSecret: string;
}

export interface SentRequest {
  status: number;
  /** Milliseconds until the app answered (Slack allows 3 s). */
  ms: number;
  body: string;
}

export interface ClickInput {
  user: string;
  channel: string;
  messageTs: string;
  blockId?: string;
  /** The element as the message has it (button or menu). */
  element: Record<string, any>;
  /** For menus: the chosen option. */
  selectedOption?: { text: unknown; value: string };
}

const TEAM = { id: BOT_IDENTITY.teamId, domain: 'isvc-playground' };
const APP_ID = 'A0ISVCDOC';

export class BotRequests {
  constructor(
    private readonly standin: SlackStandin,
    private readonly bot: BotEndpoint,
  ) {}

  async slashCommand(input: { user: string; channel: string; text: string; command?: string }): Promise<SentRequest> {
    const responseId = this.standin.responses.register({ channel: input.channel, user: input.user });
    const body = new URLSearchParams({
      token: 'deprecated-verification-token',
      team_id: TEAM.id,
      team_domain: TEAM.domain,
      channel_id: input.channel,
      channel_name: this.standin.store.channels.get(input.channel)?.name ?? input.channel.toLowerCase(),
      user_id: input.user,
      user_name: this.standin.store.people.get(input.user)?.name ?? input.user.toLowerCase(),
      command: input.command ?? '/isvc',
      text: input.text,
      api_app_id: APP_ID,
      is_enterprise_install: 'false',
      response_url: this.standin.responseUrl(responseId),
      trigger_id: triggerId(input.user),
    }).toString();
    const sent = await this.post(body, 'application/x-www-form-urlencoded');
    this.showAck(sent, input.channel, input.user);
    return sent;
  }

  /** The person's message (with `<@BOT>` in it) goes into the channel, then the app_mention event to the app. */
  async mention(input: { user: string; channel: string; text: string; threadTs?: string }): Promise<SentRequest> {
    const message = this.standin.store.add({
      channel: input.channel,
      user: input.user,
      bot: false,
      text: input.text,
      ...(input.threadTs ? { threadTs: input.threadTs } : {}),
    });
    if (!input.text.includes(`<@${BOT_IDENTITY.userId}>`)) return { status: 0, ms: 0, body: '' };
    const now = Math.floor(Date.now() / 1000);
    const envelope = {
      token: 'deprecated-verification-token',
      team_id: TEAM.id,
      api_app_id: APP_ID,
      event: {
        type: 'app_mention',
        user: input.user,
        text: input.text,
        ts: message.ts,
        channel: input.channel,
        event_ts: message.ts,
        team: TEAM.id,
        ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
      },
      type: 'event_callback',
      event_id: `Ev${randomBytes(6).toString('hex').toUpperCase()}`,
      event_time: now,
      authorizations: [
        {
          enterprise_id: null,
          team_id: TEAM.id,
          user_id: BOT_IDENTITY.userId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    };
    return this.post(JSON.stringify(envelope), 'application/json');
  }

  async click(input: ClickInput): Promise<SentRequest> {
    const message = this.standin.store.get(input.channel, input.messageTs);
    const ephemeral = Boolean(message?.ephemeralTo);
    const responseId = this.standin.responses.register({
      channel: input.channel,
      user: input.user,
      messageTs: input.messageTs,
      ...(message?.threadTs ? { threadTs: message.threadTs } : {}),
    });
    const e = input.element;
    const action = {
      type: e.type,
      action_id: e.action_id,
      block_id: input.blockId ?? '',
      action_ts: (Date.now() / 1000).toFixed(6),
      ...(e.type === 'button' ? { text: e.text, value: e.value, ...(e.style ? { style: e.style } : {}) } : {}),
      ...(input.selectedOption ? { selected_option: input.selectedOption } : {}),
    };
    const payload = {
      type: 'block_actions',
      user: {
        id: input.user,
        username: this.standin.store.people.get(input.user)?.name ?? input.user,
        team_id: TEAM.id,
      },
      api_app_id: APP_ID,
      token: 'deprecated-verification-token',
      container: {
        type: 'message',
        message_ts: input.messageTs,
        channel_id: input.channel,
        is_ephemeral: ephemeral,
        ...(message?.threadTs ? { thread_ts: message.threadTs } : {}),
      },
      trigger_id: triggerId(input.user),
      team: TEAM,
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: input.channel, name: this.standin.store.channels.get(input.channel)?.name ?? input.channel },
      ...(message && !ephemeral
        ? {
            message: {
              type: 'message',
              ts: message.ts,
              text: message.text,
              blocks: message.blocks ?? [],
              ...(message.bot ? { bot_id: BOT_IDENTITY.botId } : {}),
              user: message.user,
              ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
            },
          }
        : {}),
      state: { values: {} },
      response_url: this.standin.responseUrl(responseId),
      actions: [action],
    };
    return this.post(
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      'application/x-www-form-urlencoded',
    );
  }

  async submitView(input: {
    user: string;
    viewId: string;
    values: Record<string, Record<string, unknown>>;
  }): Promise<SentRequest> {
    const open = this.standin.store.openViews.get(input.viewId);
    const payload = {
      type: 'view_submission',
      team: TEAM,
      user: { id: input.user, team_id: TEAM.id },
      api_app_id: APP_ID,
      trigger_id: triggerId(input.user),
      view: { id: input.viewId, ...(open?.view ?? {}), state: { values: input.values } },
    };
    const sent = await this.post(
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      'application/x-www-form-urlencoded',
    );
    if (sent.status === 200 && !/"response_action"\s*:\s*"errors"/.test(sent.body))
      this.standin.store.closeView(input.viewId);
    return sent;
  }

  private async post(body: string, contentType: string): Promise<SentRequest> {
    const started = performance.now();
    const res = await fetch(this.bot.eventsUrl, {
      method: 'POST',
      headers: signedHeaders(this.bot.signingSecret, body, undefined, contentType),
      body,
    });
    const text = await res.text();
    return { status: res.status, ms: Math.round(performance.now() - started), body: text };
  }

  private showAck(sent: SentRequest, channel: string, user: string): void {
    if (sent.status !== 200 || !sent.body.trim()) return;
    let ack: Record<string, any>;
    try {
      ack = JSON.parse(sent.body) as Record<string, any>;
    } catch {
      ack = { text: sent.body };
    }
    if (!ack.text && !ack.blocks) return;
    const inChannel = ack.response_type === 'in_channel';
    this.standin.store.add({
      channel,
      user: BOT_IDENTITY.userId,
      bot: true,
      text: String(ack.text ?? ''),
      ...(Array.isArray(ack.blocks) ? { blocks: ack.blocks } : {}),
      ...(inChannel ? {} : { ephemeralTo: user }),
    });
  }
}

/** Slack's trigger ids are opaque; the stand-in's carry who acted (views.open needs it). */
function triggerId(user: string): string {
  return `${user}:${randomBytes(6).toString('hex')}`;
}
