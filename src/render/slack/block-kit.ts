/**
 * Builders for the small subset of Block Kit the renderers emit (the types are the Slack port's,
 * src/slack/slack-message.ts), and the sizes the message budgets count.
 */
import type {
  Block,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  SectionBlock,
  SlackMessage,
} from '../../slack/slack-message.js';

export const section = (text: string): SectionBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });
export const context = (...texts: string[]): ContextBlock => ({
  type: 'context',
  elements: texts.map((text) => ({ type: 'mrkdwn', text })),
});
export const header = (text: string): HeaderBlock => ({ type: 'header', text: { type: 'plain_text', text } });
export const divider = (): DividerBlock => ({ type: 'divider' });

/** Characters of visible text in a block (what the message-size budget counts). */
export function blockChars(block: Block): number {
  switch (block.type) {
    case 'section':
    case 'header':
      return block.text.text.length;
    case 'context':
      return block.elements.reduce((n, e) => n + e.text.length, 0);
    case 'actions':
      return JSON.stringify(block.elements).length;
    case 'divider':
      return 0;
  }
}

export function messageChars(message: SlackMessage): number {
  return message.text.length + message.blocks.reduce((n, b) => n + blockChars(b), 0);
}
