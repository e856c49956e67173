/**
 * rich_text blocks to HTML: sections, lists (bullet / ordered, nested by indent), preformatted and
 * quote, with text styles (bold, italic, strike, code), links, user / channel / user-group mentions,
 * broadcasts, emoji and dates.
 */
import { formatDateToken } from './date-token.js';
import { emojiFor } from './emoji.js';
import { escapeHtml, safeHref } from './html.js';
import type { Directory } from './mrkdwn.js';

type Json = Record<string, any>;

export function renderRichText(elements: Json[], dir: Directory): string {
  return elements.map((e) => container(e, dir)).join('');
}

function container(e: Json, dir: Directory): string {
  const inner = () => ((e.elements ?? []) as Json[]).map((x) => inline(x, dir)).join('');
  switch (e.type) {
    case 'rich_text_section':
      return `<div class="rt-section">${inner()}</div>`;
    case 'rich_text_preformatted':
      return `<pre class="code-block">${inner()}</pre>`;
    case 'rich_text_quote':
      return `<blockquote>${inner()}</blockquote>`;
    case 'rich_text_list': {
      const tag = e.style === 'ordered' ? 'ol' : 'ul';
      const items = ((e.elements ?? []) as Json[])
        .map(
          (item) =>
            `<li>${item.type === 'rich_text_section' ? ((item.elements ?? []) as Json[]).map((x) => inline(x, dir)).join('') : container(item, dir)}</li>`,
        )
        .join('');
      return `<${tag} class="rt-list rt-indent-${Number(e.indent ?? 0)}">${items}</${tag}>`;
    }
    default:
      return inline(e, dir);
  }
}

function styled(html: string, style: Json | undefined): string {
  if (!style) return html;
  let out = html;
  if (style.code) out = `<code>${out}</code>`;
  if (style.bold) out = `<b>${out}</b>`;
  if (style.italic) out = `<i>${out}</i>`;
  if (style.strike) out = `<s>${out}</s>`;
  return out;
}

function inline(e: Json, dir: Directory): string {
  switch (e.type) {
    case 'text':
      return styled(escapeHtml(String(e.text ?? '')).replace(/\n/g, '<br>'), e.style);
    case 'link': {
      const href = safeHref(String(e.url ?? ''));
      const text = escapeHtml(String(e.text ?? e.url ?? ''));
      return styled(
        href ? `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${text}</a>` : text,
        e.style,
      );
    }
    case 'user': {
      const id = String(e.user_id ?? '');
      return `<span class="mention${dir.me === id ? ' mention-me' : ''}">@${escapeHtml(dir.userName(id) ?? id)}</span>`;
    }
    case 'channel':
      return `<span class="mention channel">#${escapeHtml(dir.channelName(String(e.channel_id ?? '')) ?? String(e.channel_id ?? ''))}</span>`;
    case 'usergroup':
      return `<span class="mention group">@${escapeHtml(String(e.usergroup_id ?? ''))}</span>`;
    case 'broadcast':
      return `<span class="mention broadcast">@${escapeHtml(String(e.range ?? 'here'))}</span>`;
    case 'emoji':
      return e.unicode
        ? String.fromCodePoint(
            ...String(e.unicode)
              .split('-')
              .map((h) => parseInt(h, 16)),
          )
        : escapeHtml(emojiFor(String(e.name)) ?? `:${e.name}:`);
    case 'date':
      return escapeHtml(formatDateToken(Number(e.timestamp), String(e.format ?? '{date_short}'), dir.now));
    default:
      return '';
  }
}
