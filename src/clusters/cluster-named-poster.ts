/**
 * "Every message names the cluster", in one place: a SlackPoster that adds the cluster's name to
 * each message it posts, updates or sends ephemerally (a context line under the blocks, and the
 * notification text starts with it). The renderers stay as they are; a multi-cluster process gives
 * each cluster's notifiers the poster of that cluster.
 */
import type { ContextBlock, SlackMessage } from '../slack/slack-message.js';
import type { SlackPoster } from '../slack/slack-poster.js';

const MAX_BLOCKS = 50;

/** The message with the cluster line added (a message already at Slack's 50 blocks keeps only the text prefix). */
export function withClusterName(message: SlackMessage, cluster: string): SlackMessage {
  const text = message.text.startsWith(`[${cluster}] `) ? message.text : `[${cluster}] ${message.text}`;
  const blocks = message.blocks ?? [];
  if (blocks.length === 0 || blocks.length >= MAX_BLOCKS) return { ...message, text };
  const line: ContextBlock = {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `:globe_with_meridians: cluster *${cluster}*` }],
  };
  return { ...message, text, blocks: [...blocks, line] };
}

export function clusterNamedPoster(poster: SlackPoster, cluster: string): SlackPoster {
  return {
    post: (channel, message, threadTs, options) =>
      poster.post(channel, withClusterName(message, cluster), threadTs, options),
    update: (channel, ts, message) => poster.update(channel, ts, withClusterName(message, cluster)),
    ephemeral: (channel, user, message, threadTs) =>
      poster.ephemeral(channel, user, withClusterName(message, cluster), threadTs),
    ...(poster.delete ? { delete: poster.delete.bind(poster) } : {}),
  };
}

/** The cluster a message names (its context line), for buttons that run a command on the same cluster; null: none. */
export function clusterNamedIn(message: object | undefined): string | null {
  const raw = (message as { blocks?: unknown } | undefined)?.blocks;
  const blocks = Array.isArray(raw) ? (raw as Array<{ type?: string; elements?: Array<{ text?: unknown }> }>) : [];
  for (const b of blocks) {
    if (b.type !== 'context') continue;
    for (const e of b.elements ?? []) {
      const m =
        typeof e.text === 'string' ? /^:globe_with_meridians: cluster \*([a-z0-9-]{1,40})\*$/.exec(e.text) : null;
      if (m?.[1]) return m[1];
    }
  }
  return null;
}
