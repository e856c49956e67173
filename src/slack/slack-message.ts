/**
 * The Block Kit the bot posts, typed by Slack's own `@slack/types` (the types Bolt and the Web API
 * client use), so a misspelt field, a wrong element type or a missing `text` fails to compile. Only
 * types are imported: renderers stay pure data and their output is what the golden files pin.
 */
import type {
  ActionsBlock as SlackActionsBlock,
  Button,
  ContextBlock as SlackContextBlock,
  DividerBlock as SlackDividerBlock,
  HeaderBlock as SlackHeaderBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock as SlackSectionBlock,
} from '@slack/types';

/** A text object: mrkdwn or plain text. */
export type TextObject = MrkdwnElement | PlainTextElement;

/** A section with its text (the bot never posts a section without one). */
export type SectionBlock = Omit<SlackSectionBlock, 'text'> & { text: TextObject };
/** A context line of text objects (the bot posts no images there). */
export type ContextBlock = Omit<SlackContextBlock, 'elements'> & { elements: TextObject[] };
export type HeaderBlock = SlackHeaderBlock;
export type DividerBlock = SlackDividerBlock;
/** Buttons, menus and URL buttons (Approve / Reject, Re-diagnose, Set split, links). */
export type ActionsBlock = SlackActionsBlock;
/** An element of an actions block: a button, a select menu, ... */
export type ActionElement = SlackActionsBlock['elements'][number];
export type { Button };

export type Block = SectionBlock | ContextBlock | HeaderBlock | DividerBlock | ActionsBlock;

/** One Slack message: `text` is the notification / fallback text, and always names the finding codes the blocks report. */
export interface SlackMessage {
  text: string;
  blocks: Block[];
}
