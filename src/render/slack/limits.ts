/**
 * Slack's limits the renderer keeps (https://api.slack.com/reference/block-kit/blocks), and the text
 * helpers that keep them: escaping for mrkdwn, cutting with a visible note.
 */
import { cutLine } from '../../logs/cut-line.js';

export const SLACK_LIMITS = {
  blocksPerMessage: 50,
  sectionText: 3000,
  headerText: 150,
  contextElements: 10,
  /** Slack accepts more, but long messages are truncated in clients; we stay around 12k characters. */
  messageChars: 12_000,
  /** Top-level `text` of a message. */
  fallbackText: 3000,
} as const;

/**
 * Escapes the three characters mrkdwn treats as control characters, so cluster data or a user's
 * words never become a mention (`<!channel>`, `<@U…>`), a link or a date token. Used for the
 * blocks and for the notification `text` alike (Slack parses both).
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for inside a ``` block: escaped, and a stray ``` cannot close the block early. */
export function escapeCode(text: string): string {
  return escapeMrkdwn(text).replace(/```/g, '`\u200b`\u200b`');
}

/** Cuts text to at most `max` characters, ending with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  return cutLine(text, max);
}

/** A URL safe inside <url|label>. */
export function safeUrl(url: string): string {
  return url.replace(/\|/g, '%7C').replace(/>/g, '%3E').replace(/</g, '%3C').replace(/ /g, '%20');
}

export function link(url: string, label: string): string {
  return `<${safeUrl(url)}|${escapeMrkdwn(label).replace(/\|/g, '¦')}>`;
}
