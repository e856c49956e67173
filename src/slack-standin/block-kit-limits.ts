/**
 * Slack's documented limits on a message, checked the way the Web API checks them: a message over a
 * limit is refused with `invalid_blocks` (and a list of reasons with JSON pointers, as Slack's
 * `response_metadata.messages` gives them) or `msg_too_long` (text over 40,000 characters).
 */

export const LIMITS = {
  blocksPerMessage: 50,
  messageText: 40_000,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  actionId: 255,
  blockId: 255,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  selectOptions: 100,
  optionText: 75,
  optionValue: 150,
  placeholder: 150,
  altText: 2000,
} as const;

export type LimitError = { error: 'invalid_blocks' | 'msg_too_long' | 'no_text'; messages: string[] };

const BLOCK_TYPES = new Set([
  'section',
  'divider',
  'header',
  'context',
  'actions',
  'image',
  'rich_text',
  'input',
  'file',
  'video',
  'markdown',
]);
const ELEMENT_TYPES = new Set([
  'button',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'overflow',
  'datepicker',
  'timepicker',
  'checkboxes',
  'radio_buttons',
  'plain_text_input',
  'image',
  'multi_static_select',
]);

type Json = Record<string, any>;

/** The first problems of a message (text + blocks), or null when Slack would accept it. */
export function checkMessage(body: { text?: unknown; blocks?: unknown }): LimitError | null {
  const text = typeof body.text === 'string' ? body.text : '';
  if (text.length > LIMITS.messageText)
    return { error: 'msg_too_long', messages: [`text is ${text.length} characters, more than ${LIMITS.messageText}`] };
  const blocks = body.blocks;
  if (blocks === undefined || blocks === null || blocks === '') {
    return text ? null : { error: 'no_text', messages: ['a message needs text or blocks'] };
  }
  if (!Array.isArray(blocks))
    return { error: 'invalid_blocks', messages: ['blocks must be an array [json-pointer:/blocks]'] };
  const problems: string[] = [];
  if (blocks.length > LIMITS.blocksPerMessage)
    problems.push(`no more than ${LIMITS.blocksPerMessage} items allowed [json-pointer:/blocks]`);
  for (const [i, block] of blocks.entries()) checkBlock(block, `/blocks/${i}`, problems);
  return problems.length > 0 ? { error: 'invalid_blocks', messages: problems } : null;
}

/** Checks a list of blocks of a modal view (same rules, 100 blocks). */
export function checkViewBlocks(blocks: unknown): string[] {
  const problems: string[] = [];
  if (!Array.isArray(blocks)) return ['blocks must be an array [json-pointer:/view/blocks]'];
  if (blocks.length > 100) problems.push('no more than 100 items allowed [json-pointer:/view/blocks]');
  for (const [i, block] of blocks.entries()) checkBlock(block, `/view/blocks/${i}`, problems);
  return problems;
}

function checkBlock(block: unknown, at: string, problems: string[]): void {
  if (!isObject(block) || typeof block.type !== 'string')
    return void problems.push(`missing required field: type [json-pointer:${at}]`);
  if (!BLOCK_TYPES.has(block.type))
    return void problems.push(`unsupported type: ${block.type} [json-pointer:${at}/type]`);
  maxLength(block.block_id, LIMITS.blockId, `${at}/block_id`, problems);
  switch (block.type) {
    case 'section':
      if (block.text === undefined && block.fields === undefined)
        problems.push(`must provide either text or fields [json-pointer:${at}]`);
      if (block.text !== undefined) textObject(block.text, LIMITS.sectionText, `${at}/text`, problems);
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields)) problems.push(`must be an array [json-pointer:${at}/fields]`);
        else {
          if (block.fields.length > LIMITS.sectionFields)
            problems.push(`no more than ${LIMITS.sectionFields} items allowed [json-pointer:${at}/fields]`);
          for (const [j, f] of (block.fields as unknown[]).entries())
            textObject(f, LIMITS.fieldText, `${at}/fields/${j}`, problems);
        }
      }
      if (block.accessory !== undefined) checkElement(block.accessory, `${at}/accessory`, problems);
      return;
    case 'header':
      textObject(block.text, LIMITS.headerText, `${at}/text`, problems, 'plain_text');
      return;
    case 'context':
      if (!Array.isArray(block.elements) || block.elements.length === 0)
        return void problems.push(`must provide at least one element [json-pointer:${at}/elements]`);
      if (block.elements.length > LIMITS.contextElements)
        problems.push(`no more than ${LIMITS.contextElements} items allowed [json-pointer:${at}/elements]`);
      for (const [j, e] of (block.elements as unknown[]).entries()) {
        if (isObject(e) && e.type === 'image') checkImage(e, `${at}/elements/${j}`, problems);
        else textObject(e, LIMITS.sectionText, `${at}/elements/${j}`, problems);
      }
      return;
    case 'actions':
      if (!Array.isArray(block.elements) || block.elements.length === 0)
        return void problems.push(`must provide at least one element [json-pointer:${at}/elements]`);
      if (block.elements.length > LIMITS.actionsElements)
        problems.push(`no more than ${LIMITS.actionsElements} items allowed [json-pointer:${at}/elements]`);
      for (const [j, e] of (block.elements as unknown[]).entries()) checkElement(e, `${at}/elements/${j}`, problems);
      return;
    case 'image':
      checkImage(block, at, problems);
      return;
    case 'rich_text':
      if (!Array.isArray(block.elements)) problems.push(`must be an array [json-pointer:${at}/elements]`);
      return;
    default:
      return;
  }
}

function checkElement(element: unknown, at: string, problems: string[]): void {
  if (!isObject(element) || typeof element.type !== 'string')
    return void problems.push(`missing required field: type [json-pointer:${at}]`);
  if (!ELEMENT_TYPES.has(element.type))
    return void problems.push(`unsupported type: ${element.type} [json-pointer:${at}/type]`);
  maxLength(element.action_id, LIMITS.actionId, `${at}/action_id`, problems);
  if (element.type === 'image') {
    checkImage(element, at, problems);
    return;
  }
  if (element.type === 'button') {
    textObject(element.text, LIMITS.buttonText, `${at}/text`, problems, 'plain_text');
    maxLength(element.value, LIMITS.buttonValue, `${at}/value`, problems);
    maxLength(element.url, LIMITS.url, `${at}/url`, problems);
    if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger')
      problems.push(`must be one of primary, danger [json-pointer:${at}/style]`);
  }
  if (element.placeholder !== undefined)
    textObject(element.placeholder, LIMITS.placeholder, `${at}/placeholder`, problems, 'plain_text');
  if (Array.isArray(element.options)) {
    if (element.options.length > LIMITS.selectOptions)
      problems.push(`no more than ${LIMITS.selectOptions} items allowed [json-pointer:${at}/options]`);
    for (const [j, o] of (element.options as unknown[]).entries()) {
      if (!isObject(o)) {
        problems.push(`must be an object [json-pointer:${at}/options/${j}]`);
        continue;
      }
      textObject(o.text, LIMITS.optionText, `${at}/options/${j}/text`, problems);
      maxLength(o.value, LIMITS.optionValue, `${at}/options/${j}/value`, problems);
    }
  }
  if (element.confirm !== undefined) checkConfirm(element.confirm, `${at}/confirm`, problems);
}

function checkConfirm(confirm: unknown, at: string, problems: string[]): void {
  if (!isObject(confirm)) return void problems.push(`must be an object [json-pointer:${at}]`);
  textObject(confirm.title, LIMITS.confirmTitle, `${at}/title`, problems, 'plain_text');
  textObject(confirm.text, LIMITS.confirmText, `${at}/text`, problems);
  textObject(confirm.confirm, LIMITS.confirmButton, `${at}/confirm`, problems, 'plain_text');
  textObject(confirm.deny, LIMITS.confirmButton, `${at}/deny`, problems, 'plain_text');
}

function checkImage(image: Json, at: string, problems: string[]): void {
  if (typeof image.image_url !== 'string' && !isObject(image.slack_file))
    problems.push(`missing required field: image_url [json-pointer:${at}]`);
  maxLength(image.image_url, LIMITS.url, `${at}/image_url`, problems);
  if (typeof image.alt_text !== 'string') problems.push(`missing required field: alt_text [json-pointer:${at}]`);
  maxLength(image.alt_text, LIMITS.altText, `${at}/alt_text`, problems);
}

function textObject(value: unknown, max: number, at: string, problems: string[], only?: 'plain_text'): void {
  if (!isObject(value)) return void problems.push(`must be a text object [json-pointer:${at}]`);
  if (value.type !== 'plain_text' && value.type !== 'mrkdwn')
    return void problems.push(`must be one of plain_text, mrkdwn [json-pointer:${at}/type]`);
  if (only && value.type !== only) return void problems.push(`must be ${only} [json-pointer:${at}/type]`);
  if (typeof value.text !== 'string' || value.text.length === 0)
    return void problems.push(`must be more than 0 characters [json-pointer:${at}/text]`);
  if (value.text.length > max) problems.push(`must be less than ${max + 1} characters [json-pointer:${at}/text]`);
}

function maxLength(value: unknown, max: number, at: string, problems: string[]): void {
  if (typeof value === 'string' && value.length > max)
    problems.push(`must be less than ${max + 1} characters [json-pointer:${at}]`);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
