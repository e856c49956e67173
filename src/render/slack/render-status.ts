/** `/isvc status`: the InferenceServices of a namespace with their readiness at a glance. */
import type { IsvcStatus } from '../../diagnosis/list-isvc-status.js';
import type { Block, SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { cut, escapeMrkdwn, SLACK_LIMITS } from './limits.js';

const MAX_ROWS = 100;

export function renderStatus(namespace: string, items: IsvcStatus[]): SlackMessage {
  const notReady = items.filter((i) => i.ready !== true).length;
  const summary = `${items.length} InferenceService${items.length === 1 ? '' : 's'} in ${namespace}, ${notReady} not ready`;
  if (items.length === 0) return { text: `No InferenceServices in ${namespace}`, blocks: [section(`No InferenceServices in *${escapeMrkdwn(namespace)}*.`)] };
  const rows = [...items]
    .sort((a, b) => Number(a.ready === true) - Number(b.ready === true) || a.name.localeCompare(b.name))
    .slice(0, MAX_ROWS)
    .map((i) => {
      const icon = i.ready === true ? '✅' : i.ready === false ? '❌' : '⏳';
      const why = i.ready === true ? (i.url ? ` ${escapeMrkdwn(cut(i.url, 120))}` : '') : i.reason ? ` — ${escapeMrkdwn(cut(i.reason, 160))}` : '';
      return `${icon} \`${i.name}\`${why}`;
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
  return { text: summary, blocks };
}
