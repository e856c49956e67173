/**
 * `/isvc status`: the InferenceServices of a namespace (or of every one the bot may read, each row
 * then NAMESPACE/NAME) with their readiness at a glance, the ones
 * not ready first, each with how long it has been so (a Slack date token that stays true); a
 * namespace the bot may not list says so instead of "none".
 */
import type { IsvcStatus } from '../../diagnosis/list-isvc-status.js';
import type { Block, SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { cut, escapeMrkdwn, SLACK_LIMITS } from './limits.js';
import { agoToken } from './slack-date.js';

const MAX_ROWS = 100;

export interface StatusOptions {
  /** The list was refused (403) rather than empty. */
  forbidden?: boolean;
  /** For the date tokens' fallback text. */
  now?: number;
  /** The namespaces read for a list of every namespace the bot may read (its configured ones). */
  namespacesRead?: readonly string[];
}

/** Where the list was read: the namespace asked, the configured ones, or the whole cluster. */
function whereRead(namespace: string | null, read: readonly string[] | undefined): string {
  if (namespace !== null) return namespace;
  if (!read) return 'every namespace';
  const shown = read.slice(0, 10).join(', ');
  return `the namespaces this bot may read (${shown}${read.length > 10 ? `, and ${read.length - 10} more` : ''})`;
}

export function renderStatus(namespace: string | null, items: IsvcStatus[], options: StatusOptions = {}): SlackMessage {
  const where = whereRead(namespace, options.namespacesRead);
  const ns = escapeMrkdwn(where);
  const qualified = namespace === null;
  if (options.forbidden && items.length === 0) {
    const text = `🚫 isvc-doctor may not list InferenceServices in ${ns} (403 Forbidden): grant its ClusterRole there (list inferenceservices), or ask about a namespace it may read.`;
    return { text, blocks: [section(text)] };
  }
  if (items.length === 0)
    return { text: `No InferenceServices in ${ns}`, blocks: [section(`No InferenceServices in *${ns}*.`)] };
  const now = options.now ?? Date.now();
  const notReady = items.filter((i) => i.ready !== true).length;
  const summary = `${items.length} InferenceService${items.length === 1 ? '' : 's'} in ${where}, ${notReady} not ready`;
  const rows = [...items]
    .sort((a, b) => Number(a.ready === true) - Number(b.ready === true) || a.name.localeCompare(b.name))
    .slice(0, MAX_ROWS)
    .map((i) => {
      const icon = i.ready === true ? '✅' : i.ready === false ? '❌' : '⏳';
      const age =
        i.since !== undefined ? ` _${i.ready === true ? 'ready' : 'not ready'} since ${agoToken(i.since, now)}_` : '';
      const why =
        i.ready === true
          ? i.url
            ? ` ${escapeMrkdwn(cut(i.url, 120))}`
            : ''
          : i.reason
            ? ` — ${escapeMrkdwn(cut(i.reason.replace(/\s*\n\s*/g, ' '), 160))}`
            : '';
      const shownName = qualified ? `${i.namespace}/${i.name}` : i.name;
      return `${icon} \`${escapeMrkdwn(shownName)}\`${i.kind ? ' _LLMInferenceService_' : ''}${age}${why}`;
    });
  const chunks: string[] = [];
  let current = '';
  for (const row of rows) {
    if (current.length + row.length + 1 > SLACK_LIMITS.sectionText) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}\n${row}` : row;
  }
  if (current) chunks.push(current);
  const blocks: Block[] = [section(`*${escapeMrkdwn(summary)}*`), ...chunks.slice(0, 40).map(section)];
  if (items.length > MAX_ROWS) blocks.push(context(`_${items.length - MAX_ROWS} more not shown_`));
  blocks.push(context('`/isvc diagnose NAME -n NAMESPACE` says why one is not ready.'));
  return { text: escapeMrkdwn(summary), blocks };
}
