/** Buttons the messages carry: an action button whose value is only a target or an opaque id, and URL buttons. */
import type { TargetRef } from '../../core/target-ref.js';
import { MUTE_HOUR_ACTION, OPEN_LINK_ACTION, REDIAGNOSE_ACTION } from '../../slack/action-ids.js';
import type { ActionElement, ActionsBlock, Button } from '../../slack/slack-message.js';
import { cut } from './limits.js';

export type { Button };

/** At most 25 elements an actions block; a button's text at most 75 characters, its value 2000, a URL 3000. */
export function button(actionId: string, label: string, value: string, style?: 'primary' | 'danger'): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: cut(label, 75), emoji: true },
    value: value.slice(0, 2000),
    ...(style ? { style } : {}),
  };
}

export function urlButton(label: string, url: string, index = 0): Button {
  return {
    type: 'button',
    action_id: `${OPEN_LINK_ACTION}.${index}`,
    text: { type: 'plain_text', text: cut(label, 75), emoji: true },
    url: url.slice(0, 3000),
  };
}

export const targetValue = (t: TargetRef) => `${t.namespace}/${t.name}`;

export const rediagnoseButton = (t: TargetRef): Button => button(REDIAGNOSE_ACTION, '🔁 Re-diagnose', targetValue(t));
export const muteHourButton = (t: TargetRef): Button => button(MUTE_HOUR_ACTION, '🔕 Mute 1h', targetValue(t));

export function actions(blockId: string, elements: ActionElement[]): ActionsBlock {
  return { type: 'actions', block_id: blockId.slice(0, 255), elements: elements.slice(0, 25) };
}

/** Safe http(s) URLs only (a link evidence from config); anything else is not offered as a button. */
export function isWebUrl(url: string): boolean {
  return /^https?:\/\/[^\s<>|]+$/i.test(url) && url.length <= 3000;
}
