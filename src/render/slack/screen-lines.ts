/**
 * How many lines a message takes on screen as Slack shows it: mrkdwn markup is not counted (links
 * show their label, mentions and date tokens their text), lines wrap at about 80 characters, a
 * code block's fences take no line, a row of buttons takes one. The renderers fit the root message
 * and the first reply of a diagnosis into one screen with it; a test prints it for every scenario.
 */
import type { Block, SlackMessage } from '../../slack/slack-message.js';

export const SCREEN_WIDTH = 80;

/** The characters of mrkdwn a person sees. */
export function visibleText(mrkdwn: string): string {
  return mrkdwn
    .replace(/<!date\^[^|>]*\|([^>]*)>/g, '$1')
    .replace(/<@[A-Z0-9]+(?:\|[^>]*)?>/g, '@someone')
    .replace(/<![a-z]+(?:\|[^>]*)?>/g, '@here')
    .replace(/<[^|>]+\|([^>]*)>/g, '$1')
    .replace(/<([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\u200b/g, '')
    .replace(/(^|[\s(])[*_~]+|[*_~]+(?=[\s).,:;]|$)/g, '$1')
    .replace(/`/g, '');
}

/** Lines of one mrkdwn text wrapped at `width` characters. */
export function wrappedLines(mrkdwn: string, width = SCREEN_WIDTH): number {
  return visibleText(mrkdwn)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .reduce((n, line) => n + Math.max(1, Math.ceil([...line].length / width)), 0);
}

export function blockLines(block: Block, width = SCREEN_WIDTH): number {
  switch (block.type) {
    case 'section':
    case 'header':
      return wrappedLines(block.text.text, width);
    case 'context':
      // elements flow on one line, in a smaller font: about 100 characters a line
      return wrappedLines(block.elements.map((e) => e.text).join('  '), Math.round(width * 1.25));
    case 'actions':
      return Math.max(1, Math.ceil(block.elements.length / 4));
    case 'divider':
      return 0;
  }
}

export function screenLines(message: SlackMessage, width = SCREEN_WIDTH): number {
  return message.blocks.reduce((n, b) => n + blockLines(b, width), 0);
}
