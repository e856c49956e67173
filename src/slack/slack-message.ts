/**
 * The small subset of Block Kit the bot posts, as plain data (no Slack SDK import: renderers stay
 * pure and their output is what the golden files pin).
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
/** Buttons (the remediation proposals' Approve / Reject). */
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
