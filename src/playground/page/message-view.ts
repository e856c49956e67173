/**
 * One message as Slack shows it: avatar, name (an APP badge for the bot), time, the blocks (or the
 * text when there are none), "(edited)", the thread summary under a root, and for ephemeral
 * messages "Only visible to you" with Dismiss. Consecutive messages of one sender within five
 * minutes are grouped without repeating the header, as Slack does.
 */
import { renderBlocks } from './block-kit.js';
import { escapeHtml } from './html.js';
import { renderMrkdwn, type Directory } from './mrkdwn.js';
import type { Message } from './page-types.js';

export interface MessageViewContext {
  dir: Directory;
  botId: string;
  /** Whether to show the reply summary (channel view, not inside the thread pane). */
  summaries: boolean;
}

const COLORS = 6;

export function timeOf(ts: string): Date {
  return new Date(Number(ts.split('.')[0]) * 1000);
}

function clock(date: Date): string {
  const h = date.getHours() % 12 || 12;
  return `${h}:${String(date.getMinutes()).padStart(2, '0')} ${date.getHours() < 12 ? 'AM' : 'PM'}`;
}

function avatar(message: Message, name: string, ctx: MessageViewContext): string {
  if (message.user === ctx.botId) return '<div class="avatar avatar-bot" aria-hidden="true">🩺</div>';
  const color = [...message.user].reduce((a, c) => a + c.charCodeAt(0), 0) % COLORS;
  return `<div class="avatar avatar-${color}" aria-hidden="true">${escapeHtml(name.slice(0, 1).toUpperCase())}</div>`;
}

export function renderMessage(message: Message, previous: Message | undefined, ctx: MessageViewContext): string {
  const name = message.user === ctx.botId ? 'isvc-doctor' : (ctx.dir.userName(message.user) ?? message.user);
  const grouped =
    previous &&
    previous.user === message.user &&
    !previous.ephemeralTo &&
    !message.ephemeralTo &&
    timeOf(message.ts).getTime() - timeOf(previous.ts).getTime() < 5 * 60_000;
  const time = timeOf(message.ts);
  const header = grouped
    ? `<span class="gutter-time">${escapeHtml(clock(time))}</span>`
    : `${avatar(message, name, ctx)}<div class="message-header"><span class="sender">${escapeHtml(name)}</span>${message.bot ? '<span class="app-badge">APP</span>' : ''}<span class="time" title="${escapeHtml(time.toString())}">${escapeHtml(clock(time))}</span></div>`;
  const ephemeral = message.ephemeralTo
    ? `<div class="ephemeral-note"><span aria-hidden="true">👁</span> Only visible to you · <button type="button" class="link-button dismiss">Dismiss</button></div>`
    : '';
  const content =
    message.blocks && message.blocks.length > 0
      ? renderBlocks(message.blocks, ctx.dir)
      : `<div class="bk-text">${renderMrkdwn(message.text, ctx.dir)}</div>`;
  const edited = message.editedTs ? '<span class="edited">(edited)</span>' : '';
  const summary = ctx.summaries && message.replyCount > 0 ? threadSummary(message, ctx) : '';
  const classes = ['message', grouped ? 'grouped' : '', message.ephemeralTo ? 'ephemeral' : '']
    .filter(Boolean)
    .join(' ');
  return `<article class="${classes}" data-channel="${escapeHtml(message.channel)}" data-ts="${escapeHtml(message.ts)}">${header}<div class="message-body">${ephemeral}${content}${edited}${summary}</div></article>`;
}

function threadSummary(message: Message, ctx: MessageViewContext): string {
  const faces = message.replyUsers
    .slice(0, 4)
    .map((u) =>
      u === ctx.botId
        ? '<span class="mini-avatar avatar-bot">🩺</span>'
        : `<span class="mini-avatar">${escapeHtml((ctx.dir.userName(u) ?? u).slice(0, 1).toUpperCase())}</span>`,
    )
    .join('');
  const last = message.latestReply
    ? `<span class="last-reply">Last reply ${escapeHtml(clock(timeOf(message.latestReply)))}</span>`
    : '';
  return `<button type="button" class="thread-summary" data-open-thread="${escapeHtml(message.ts)}">${faces}<span class="reply-count">${message.replyCount} ${message.replyCount === 1 ? 'reply' : 'replies'}</span>${last}</button>`;
}
