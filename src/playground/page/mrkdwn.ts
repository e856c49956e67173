/**
 * Slack's mrkdwn to HTML, as Slack's clients show it. Text arrives Slack-escaped (`&amp;`, `&lt;`,
 * `&gt;`: the only entities Slack uses); a literal `<…>` is a control sequence: a link `<url|text>`,
 * a mention `<@U…>`, `<#C…|name>`, `<!here>`, `<!subteam^S…>`, a date `<!date^epoch^format|fallback>`.
 * Then ```pre```, `code`, *bold*, _italic_, ~strike~ (only at word boundaries, so snake_case stays),
 * `>` quotes at line starts, emoji shortcodes, and newlines. Every piece of text is HTML-escaped.
 */
import { formatDateToken } from './date-token.js';
import { replaceEmoji } from './emoji.js';
import { decodeSlackEntities, escapeHtml, safeHref } from './html.js';

export interface Directory {
  /** Slack user id → display name. */
  userName(id: string): string | undefined;
  channelName(id: string): string | undefined;
  /** Mentions of this person are highlighted (Slack marks mentions of the reader). */
  me?: string;
  now?: Date;
}

const HOLE = '\u0000';
const hole = (i: number) => `${HOLE}${i}${HOLE}`;

/** A control sequence's HTML and its plain-text form (used inside code). */
function control(inner: string, dir: Directory): { html: string; plain: string } {
  const [target = '', ...rest] = inner.split('|');
  const label = rest.length > 0 ? decodeSlackEntities(rest.join('|')) : undefined;
  if (/^@[UW][A-Z0-9]+$/.test(target)) {
    const id = target.slice(1);
    const name = `@${label ?? dir.userName(id) ?? id}`;
    return {
      html: `<span class="mention${dir.me === id ? ' mention-me' : ''}" data-user="${escapeHtml(id)}">${escapeHtml(name)}</span>`,
      plain: name,
    };
  }
  if (/^#C[A-Z0-9]+$/.test(target)) {
    const name = `#${label ?? dir.channelName(target.slice(1)) ?? target.slice(1)}`;
    return { html: `<span class="mention channel">${escapeHtml(name)}</span>`, plain: name };
  }
  if (target.startsWith('!date^')) return dateToken(target, label, dir);
  if (target.startsWith('!subteam^')) {
    const name = label ?? `@${target.slice('!subteam^'.length)}`;
    return { html: `<span class="mention group">${escapeHtml(name)}</span>`, plain: name };
  }
  if (/^!(here|channel|everyone)$/.test(target))
    return { html: `<span class="mention broadcast">@${target.slice(1)}</span>`, plain: `@${target.slice(1)}` };
  const url = decodeSlackEntities(target);
  const text = label ?? url.replace(/^mailto:/, '');
  const href = safeHref(url);
  if (!href) return { html: escapeHtml(`<${decodeSlackEntities(inner)}>`), plain: `<${decodeSlackEntities(inner)}>` };
  return {
    html: `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${escapeHtml(text)}</a>`,
    plain: text,
  };
}

function dateToken(target: string, fallback: string | undefined, dir: Directory): { html: string; plain: string } {
  const [, epoch = '', format = '', link] = target.split('^');
  const seconds = Number(epoch);
  if (!/^\d+$/.test(epoch) || !Number.isFinite(seconds))
    return { html: escapeHtml(fallback ?? ''), plain: fallback ?? '' };
  const text = formatDateToken(seconds, format, dir.now);
  const inner = `<time class="date-token" datetime="${new Date(seconds * 1000).toISOString()}" data-epoch="${seconds}" data-format="${escapeHtml(format)}" title="${escapeHtml(new Date(seconds * 1000).toString())}">${escapeHtml(text)}</time>`;
  const href = link ? safeHref(decodeSlackEntities(link)) : null;
  return {
    html: href ? `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${inner}</a>` : inner,
    plain: text,
  };
}

const EDGE_BEFORE = String.raw`(^|[^\p{L}\p{N}])`;
const EDGE_AFTER = String.raw`(?=$|[^\p{L}\p{N}])`;
function styled(text: string, mark: string, tag: string): string {
  const m = mark === '*' ? '\\*' : mark;
  const pattern = new RegExp(`${EDGE_BEFORE}${m}(?![\\s${m}])([^${m}\\n]*?[^\\s${m}])${m}${EDGE_AFTER}`, 'gu');
  return text.replace(pattern, (_all, before: string, inner: string) => `${before}<${tag}>${inner}</${tag}>`);
}

export function renderMrkdwn(text: string, dir: Directory): string {
  const holes: string[] = [];
  const keep = (html: string) => hole(holes.push(html) - 1);
  const controls: Array<{ html: string; plain: string }> = [];
  // control sequences first: they hold the only literal < and > in Slack text
  let work = text.replace(
    /<([^<>\n]*)>/g,
    (_all, inner: string) => `${HOLE}c${controls.push(control(inner, dir)) - 1}${HOLE}`,
  );
  const plain = (s: string) =>
    escapeHtml(decodeSlackEntities(s)).replace(new RegExp(`${HOLE}c(\\d+)${HOLE}`, 'g'), (_a, i: string) =>
      escapeHtml(controls[Number(i)]!.plain),
    );
  work = work.replace(/```([\s\S]*?)```/g, (_all, code: string) =>
    keep(`<pre class="code-block">${plain(code.replace(/^\n/, ''))}</pre>`),
  );
  work = work.replace(/`([^`\n]+)`/g, (_all, code: string) => keep(`<code>${plain(code)}</code>`));
  let html = escapeHtml(decodeSlackEntities(work));
  html = styled(html, '*', 'b');
  html = styled(html, '_', 'i');
  html = styled(html, '~', 's');
  html = replaceEmoji(html);
  html = quotes(html);
  html = html.replace(/\n/g, '<br>');
  html = html.replace(new RegExp(`${HOLE}c(\\d+)${HOLE}`, 'g'), (_a, i: string) => controls[Number(i)]!.html);
  return html.replace(new RegExp(`${HOLE}(\\d+)${HOLE}`, 'g'), (_a, i: string) => holes[Number(i)]!);
}

/** Lines starting with `>` (escaped here as &gt;) become one quote block per run of lines. */
function quotes(html: string): string {
  const lines = html.split('\n');
  const out: string[] = [];
  let quote: string[] = [];
  const flush = () => {
    if (quote.length) out.push(`<blockquote>${quote.join('\n')}</blockquote>`);
    quote = [];
  };
  for (const line of lines) {
    const m = /^&gt;\s?(.*)$/.exec(line);
    if (m) quote.push(m[1]!);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out.join('\n').replace(/<\/blockquote>\n/g, '</blockquote>');
}

/** A plain_text object: escaped, emoji shortcodes replaced when `emoji` is not false. */
export function renderPlainText(text: string, emoji = true): string {
  const html = escapeHtml(decodeSlackEntities(text)).replace(/\n/g, '<br>');
  return emoji ? replaceEmoji(html) : html;
}
