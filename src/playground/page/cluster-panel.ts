/**
 * The cluster panel: the simulated cluster's InferenceServices with their Ready condition (updated
 * live), the selected one's YAML with the lines that changed since the last look highlighted, and
 * its "break it" actions.
 */
import { escapeHtml } from './html.js';
import type { BreakAction, IsvcRow } from './page-types.js';

export function renderRows(rows: IsvcRow[], selected: string | undefined): string {
  if (rows.length === 0) return '<p class="empty">No InferenceServices or LLMInferenceServices.</p>';
  return rows
    .map((r) => {
      const key = `${r.namespace}/${r.name}`;
      const state = r.ready === 'True' ? 'ready' : r.ready === 'False' ? 'not-ready' : 'unknown';
      const rolling =
        r.generation !== undefined && r.observedGeneration !== undefined && r.observedGeneration < r.generation
          ? '<span class="rolling">rolling out…</span>'
          : '';
      const reason = r.ready === 'True' ? 'Ready' : (r.reason ?? (r.ready === 'Unknown' ? 'Unknown' : 'Not ready'));
      return `<button type="button" class="isvc-row${key === selected ? ' selected' : ''}" data-isvc="${escapeHtml(key)}" title="${escapeHtml(r.message ?? '')}"><span class="dot dot-${state}" aria-hidden="true"></span><span class="isvc-name"><span class="ns">${escapeHtml(r.namespace)}/</span>${escapeHtml(r.name)}${r.kind === 'LLMInferenceService' ? ' <span class="kind-tag" title="LLMInferenceService">llmisvc</span>' : ''}</span><span class="isvc-state state-${state}">${escapeHtml(reason)}</span>${rolling}</button>`;
    })
    .join('');
}

/** The YAML as lines, the `changed` ones marked (a fix landing shows where it landed). */
export function renderYaml(yaml: string, changed: ReadonlySet<string>): string {
  return yaml
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `<span class="yaml-line${changed.has(line) ? ' changed' : ''}">${escapeHtml(line) || ' '}</span>`)
    .join('\n');
}

/** Lines that appeared in the last `keepMs` (by `seen`: line → when it first appeared). */
export function recentLines(
  yaml: string,
  before: string | undefined,
  seen: Map<string, number>,
  now: number,
  keepMs = 20_000,
): Set<string> {
  const old = new Set((before ?? '').split('\n'));
  const lines = yaml.split('\n');
  for (const line of lines) if (before !== undefined && !old.has(line)) seen.set(line, seen.get(line) ?? now);
  for (const [line, at] of seen) if (!lines.includes(line) || now - at > keepMs) seen.delete(line);
  return new Set(seen.keys());
}

export function renderBreakActions(actions: BreakAction[]): string {
  if (actions.length === 0) return '<p class="hint">Nothing to break here right now.</p>';
  return actions
    .map(
      (a) =>
        `<button type="button" class="break-action" data-break="${escapeHtml(a.id)}" title="${escapeHtml(a.detail)}"><span class="break-label">${escapeHtml(a.label)}</span><span class="break-detail">${escapeHtml(a.detail)}</span></button>`,
    )
    .join('');
}
