/**
 * Slack's dialogs in the page: the confirm dialog a button or menu may carry (title, text, the
 * confirm / deny labels, a danger style), and a modal view opened by views.open (its blocks, Submit
 * / Close, and the state.values a view_submission carries).
 */
import { renderBlocks, textHtml } from './block-kit.js';
import type { Directory } from './mrkdwn.js';

type Json = Record<string, any>;

export function askConfirm(dialog: HTMLDialogElement, confirm: Json, dir: Directory): Promise<boolean> {
  const danger = confirm.style === 'danger' ? ' bk-danger' : ' bk-primary';
  dialog.innerHTML = `<form method="dialog" class="slack-dialog"><h2>${textHtml(confirm.title ?? { type: 'plain_text', text: 'Are you sure?' }, dir)}</h2><div class="dialog-text">${textHtml(confirm.text, dir)}</div><div class="dialog-buttons"><button value="deny" class="bk-button">${textHtml(confirm.deny ?? { type: 'plain_text', text: 'Cancel' }, dir)}</button><button value="confirm" class="bk-button${danger}">${textHtml(confirm.confirm ?? { type: 'plain_text', text: 'Yes' }, dir)}</button></div></form>`;
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
    dialog.showModal();
  });
}

export function showModal(dialog: HTMLDialogElement, view: Json, dir: Directory): void {
  const title = textHtml(view.title ?? { type: 'plain_text', text: 'isvc-doctor' }, dir);
  const submit = view.submit
    ? `<button value="submit" class="bk-button bk-primary">${textHtml(view.submit, dir)}</button>`
    : '';
  const close = textHtml(view.close ?? { type: 'plain_text', text: 'Cancel' }, dir);
  dialog.innerHTML = `<form method="dialog" class="slack-dialog slack-modal"><h2>${title}</h2><div class="modal-blocks">${renderBlocks(view.blocks ?? [], dir)}</div><div class="dialog-buttons"><button value="close" class="bk-button">${close}</button>${submit}</div></form>`;
  dialog.showModal();
}

/** state.values of a modal: {block_id: {action_id: value}} as Slack sends them. */
export function modalValues(dialog: HTMLDialogElement, view: Json): Record<string, Record<string, unknown>> {
  const values: Record<string, Record<string, unknown>> = {};
  ((view.blocks ?? []) as Json[]).forEach((block, i) => {
    if (block.type !== 'input') return;
    const element = (block.element ?? {}) as Json;
    const node = dialog.querySelector<HTMLElement>(`[data-block="${i}"]`);
    const blockId = String(block.block_id ?? `b${i}`);
    const actionId = String(element.action_id ?? `a${i}`);
    values[blockId] = { [actionId]: elementValue(element, node) };
  });
  return values;
}

function elementValue(element: Json, node: HTMLElement | null): unknown {
  if (node instanceof HTMLSelectElement) {
    const option = ((element.options ?? []) as Json[]).find((o) => o.value === node.value);
    return { type: element.type, selected_option: option ?? null };
  }
  if (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement)
    return { type: element.type, value: node.value };
  const checked = node ? [...node.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.value) : [];
  const options = ((element.options ?? []) as Json[]).filter((o) => checked.includes(String(o.value)));
  return element.type === 'radio_buttons'
    ? { type: element.type, selected_option: options[0] ?? null }
    : { type: element.type, selected_options: options };
}
