/**
 * Block Kit to HTML, generically: every layout block and element Slack documents for messages and
 * modals, rendered as Slack's clients lay them out (section text, fields in two columns and the
 * accessory at the right; context in small grey; header; divider; image; actions with default /
 * primary / danger buttons and menus; rich_text; input). Interactive elements carry
 * `data-block` / `data-element` (the indexes the page sends back when one is used). Images from
 * outside the page's origin are not fetched (the page stays on loopback): a placeholder names them.
 */
import { escapeHtml, safeHref } from './html.js';
import { renderMrkdwn, renderPlainText, type Directory } from './mrkdwn.js';
import { renderRichText } from './rich-text.js';

type Json = Record<string, any>;

export function textHtml(text: unknown, dir: Directory): string {
  if (!text || typeof text !== 'object') return '';
  const t = text as Json;
  const body = String(t.text ?? '');
  return t.type === 'mrkdwn' ? renderMrkdwn(body, dir) : renderPlainText(body, t.emoji !== false);
}

export function renderBlocks(blocks: unknown[], dir: Directory): string {
  return blocks.map((b, i) => renderBlock((b ?? {}) as Json, i, dir)).join('');
}

function renderBlock(block: Json, i: number, dir: Directory): string {
  const id = block.block_id ? ` data-block-id="${escapeHtml(String(block.block_id))}"` : '';
  switch (block.type) {
    case 'section': {
      const text = block.text ? `<div class="bk-text">${textHtml(block.text, dir)}</div>` : '';
      const fields = Array.isArray(block.fields)
        ? `<div class="bk-fields">${block.fields.map((f: unknown) => `<div class="bk-field">${textHtml(f, dir)}</div>`).join('')}</div>`
        : '';
      const accessory = block.accessory
        ? `<div class="bk-accessory">${renderElement(block.accessory as Json, i, 'accessory', dir)}</div>`
        : '';
      return `<div class="bk-block bk-section"${id}><div class="bk-section-main">${text}${fields}</div>${accessory}</div>`;
    }
    case 'header':
      return `<div class="bk-block bk-header"${id}>${textHtml(block.text, dir)}</div>`;
    case 'divider':
      return `<hr class="bk-block bk-divider"${id}>`;
    case 'context':
      return `<div class="bk-block bk-context"${id}>${((block.elements ?? []) as Json[]).map((e) => (e.type === 'image' ? image(e, 'bk-context-image') : `<span class="bk-context-text">${textHtml(e, dir)}</span>`)).join('')}</div>`;
    case 'actions':
      return `<div class="bk-block bk-actions"${id}>${((block.elements ?? []) as Json[]).map((e, j) => renderElement(e, i, String(j), dir)).join('')}</div>`;
    case 'image': {
      const title = block.title ? `<div class="bk-image-title">${textHtml(block.title, dir)}</div>` : '';
      return `<div class="bk-block bk-image"${id}>${title}${image(block, 'bk-image-full')}</div>`;
    }
    case 'rich_text':
      return `<div class="bk-block bk-rich-text"${id}>${renderRichText((block.elements ?? []) as Json[], dir)}</div>`;
    case 'input': {
      const hint = block.hint ? `<div class="bk-hint">${textHtml(block.hint, dir)}</div>` : '';
      const optional = block.optional ? ' <span class="bk-optional">(optional)</span>' : '';
      return `<label class="bk-block bk-input"${id}><span class="bk-label">${textHtml(block.label, dir)}${optional}</span>${renderElement((block.element ?? {}) as Json, i, 'element', dir)}${hint}</label>`;
    }
    case 'markdown':
      return `<div class="bk-block bk-markdown"${id}>${renderMrkdwn(String(block.text ?? ''), dir)}</div>`;
    default:
      return `<div class="bk-block bk-unsupported">[${escapeHtml(String(block.type ?? 'block without type'))}: not shown here]</div>`;
  }
}

function attrs(block: number, element: string, e: Json): string {
  return `data-block="${block}" data-element="${escapeHtml(element)}" data-action-id="${escapeHtml(String(e.action_id ?? ''))}"`;
}

export function renderElement(e: Json, block: number, element: string, dir: Directory): string {
  switch (e.type) {
    case 'button': {
      const style = e.style === 'primary' || e.style === 'danger' ? ` bk-${e.style}` : '';
      const href = typeof e.url === 'string' ? safeHref(e.url) : null;
      const link = href ? ` data-url="${escapeHtml(href)}"` : '';
      const confirm = e.confirm ? ' data-confirm="1"' : '';
      return `<button type="button" class="bk-button${style}" ${attrs(block, element, e)}${link}${confirm}>${textHtml(e.text, dir)}${href ? ' <span class="bk-external">↗</span>' : ''}</button>`;
    }
    case 'static_select':
    case 'multi_static_select':
    case 'overflow':
      return select(e, block, element, dir);
    case 'image':
      return image(e, 'bk-accessory-image');
    case 'datepicker':
      return `<input type="date" class="bk-datepicker" ${attrs(block, element, e)} value="${escapeHtml(String(e.initial_date ?? ''))}">`;
    case 'plain_text_input':
      return e.multiline
        ? `<textarea class="bk-text-input" ${attrs(block, element, e)} placeholder="${escapeHtml(String(e.placeholder?.text ?? ''))}">${escapeHtml(String(e.initial_value ?? ''))}</textarea>`
        : `<input type="text" class="bk-text-input" ${attrs(block, element, e)} placeholder="${escapeHtml(String(e.placeholder?.text ?? ''))}" value="${escapeHtml(String(e.initial_value ?? ''))}">`;
    case 'checkboxes':
    case 'radio_buttons': {
      const kind = e.type === 'checkboxes' ? 'checkbox' : 'radio';
      const initial = new Set(
        ((e.initial_options ?? (e.initial_option ? [e.initial_option] : [])) as Json[]).map((o) => o.value),
      );
      return `<div class="bk-choices" ${attrs(block, element, e)}>${((e.options ?? []) as Json[])
        .map(
          (o) =>
            `<label class="bk-choice"><input type="${kind}" name="${escapeHtml(String(e.action_id ?? block))}" value="${escapeHtml(String(o.value))}"${initial.has(o.value) ? ' checked' : ''}> ${textHtml(o.text, dir)}</label>`,
        )
        .join('')}</div>`;
    }
    default:
      return `<span class="bk-unsupported">[${escapeHtml(String(e.type ?? 'element'))}]</span>`;
  }
}

function select(e: Json, block: number, element: string, dir: Directory): string {
  const option = (o: Json) =>
    `<option value="${escapeHtml(String(o.value))}"${e.initial_option?.value === o.value ? ' selected' : ''}>${stripTags(textHtml(o.text, dir))}</option>`;
  const groups = Array.isArray(e.option_groups)
    ? (e.option_groups as Json[])
        .map(
          (g) =>
            `<optgroup label="${escapeHtml(String(g.label?.text ?? ''))}">${((g.options ?? []) as Json[]).map(option).join('')}</optgroup>`,
        )
        .join('')
    : ((e.options ?? []) as Json[]).map(option).join('');
  const placeholder = e.type === 'overflow' ? '⋯' : String(e.placeholder?.text ?? 'Select an item');
  const initial = e.initial_option ? '' : ' selected';
  const cls = e.type === 'overflow' ? 'bk-select bk-overflow' : 'bk-select';
  return `<select class="${cls}" ${attrs(block, element, e)}${e.confirm ? ' data-confirm="1"' : ''}><option value="" disabled${initial}>${escapeHtml(placeholder)}</option>${groups}</select>`;
}

/** Same-origin and data: images are shown; others are named, not fetched. */
function image(e: Json, cls: string): string {
  const url = String(e.image_url ?? e.slack_file?.url ?? '');
  const alt = escapeHtml(String(e.alt_text ?? ''));
  if (url.startsWith('/') || url.startsWith('data:image/'))
    return `<img class="${cls}" src="${escapeHtml(url)}" alt="${alt}">`;
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // shown as given
  }
  return `<span class="${cls} bk-image-placeholder" title="${escapeHtml(url)}">🖼 ${alt || 'image'} <small>(${escapeHtml(host)}: not loaded, the playground stays offline)</small></span>`;
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '');
}
