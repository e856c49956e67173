/**
 * The small subset of Block Kit the renderer emits, as plain data (no Slack SDK import: the renderer
 * stays pure and its output is what the golden files pin).
 */
export interface TextObject {
  type: 'mrkdwn' | 'plain_text';
  text: string;
}

export interface SectionBlock {
  type: 'section';
  text: TextObject;
}
export interface ContextBlock {
  type: 'context';
  elements: TextObject[];
}
export interface HeaderBlock {
  type: 'header';
  text: TextObject;
}
export interface DividerBlock {
  type: 'divider';
}
/** Buttons etc.; issue 4's proposals add these (the renderer itself emits none yet). */
export interface ActionsBlock {
  type: 'actions';
  block_id?: string;
  elements: Array<Record<string, unknown>>;
}

export type Block = SectionBlock | ContextBlock | HeaderBlock | DividerBlock | ActionsBlock;

/** One Slack message: `text` is the notification / fallback text, and always names the finding codes the blocks report. */
export interface SlackMessage {
  text: string;
  blocks: Block[];
}

export const section = (text: string): SectionBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });
export const context = (...texts: string[]): ContextBlock => ({ type: 'context', elements: texts.map((text) => ({ type: 'mrkdwn', text })) });
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
