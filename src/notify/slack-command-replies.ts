/** The commands' ephemeral answers on Slack (rendered here, sent by the listener: response_url or chat.postEphemeral). */
import type { ClusterListing } from '../clusters/cluster-routes.js';
import type { CommandReply } from '../commands/command.js';
import { humanDuration } from '../core/duration.js';
import { context, section } from '../render/slack/block-kit.js';
import { renderCommandFailure, renderCommandWorking } from '../render/slack/render-command-progress.js';
import {
  renderCommandFailed,
  renderHelp,
  renderJobFailed,
  renderNotInChannel,
  renderQueueUnavailable,
  renderUsageError,
} from '../render/slack/render-notices.js';
import type { SlackMessage } from '../slack/slack-message.js';

const note = (text: string): SlackMessage => ({ text, blocks: [section(text)] });

export function renderCommandReply(reply: CommandReply): SlackMessage {
  switch (reply.kind) {
    case 'help':
      return renderHelp(reply.usage);
    case 'usage-error':
      return renderUsageError(reply.problem, reply.usage);
    case 'disabled':
      return reply.feature === 'remediations'
        ? renderUsageError(
            'Rollouts need remediations, which are not enabled on this bot (REMEDIATION_DISABLED).',
            reply.usage,
          )
        : note(
            'Automatic incidents are not enabled on this bot (INCIDENTS_DISABLED): set alerts.channel in its config.',
          );
    case 'muted': {
      const span = reply.durationMs === null ? 'until `/isvc unmute`' : `for ${humanDuration(reply.durationMs)}`;
      return {
        text: `🔕 Muted ${reply.key} ${span}: no automatic incident posts for it.`,
        blocks: [
          section(`🔕 Muted *${reply.key}* ${span}: no automatic incident posts for it.`),
          context('_An incident already open for it still says when it recovers._'),
        ],
      };
    }
    case 'unmuted':
      return note(
        reply.wasMuted
          ? `🔔 Unmuted ${reply.key}: automatic incident posts are back on.`
          : `${reply.key} was not muted.`,
      );
    case 'queue-unavailable':
      return renderQueueUnavailable();
    case 'not-in-channel':
      return renderNotInChannel();
    case 'failed':
      return reply.target
        ? renderJobFailed(reply.target, reply.code, reply.command)
        : renderCommandFailed(reply.command ?? 'command', reply.code, reply.namespace);
    case 'no-agent':
      return renderNoAgent(reply.cluster, reply.since);
    case 'clusters':
      return renderClusters(reply.clusters);
    case 'working':
      return renderCommandWorking(reply.text);
    case 'command-failed':
      return renderCommandFailure(reply.failure);
  }
}

/** A Slack date token: each reader sees the time in their own zone; the fallback is UTC. */
function slackTime(ms: number): string {
  const fallback = `${new Date(ms).toISOString().slice(11, 16)} UTC`;
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${fallback}>`;
}

export function renderNoAgent(cluster: string, since: number | null): SlackMessage {
  const when = since === null ? ' (none has connected yet)' : ` since ${slackTime(since)}`;
  const text = `⚠️ cluster ${cluster} has no agent connected${when}: nothing was queued. Start its agent (\`isvc-doctor serve --role agent --cluster ${cluster}\`) and ask again.`;
  return note(text);
}

function renderClusters(clusters: ClusterListing[] | null): SlackMessage {
  if (clusters === null) return note('This bot serves one cluster (no `clusters:` in its config).');
  const lines = clusters.map((c) => {
    const h = c.health;
    const state = h.live
      ? `🟢 ${h.agents} agent${h.agents === 1 ? '' : 's'}, v${h.version ?? '?'}, last heartbeat ${slackTime(h.lastSeenAt!)}`
      : h.lastSeenAt === null
        ? '🔴 no agent has connected yet'
        : `🔴 no agent connected since ${slackTime(h.lastSeenAt)}${h.version ? ` (v${h.version})` : ''}`;
    const where = [
      c.isDefault ? 'default' : null,
      c.channels.length > 0 ? `channels ${c.channels.map((ch) => `<#${ch}>`).join(' ')}` : null,
      c.alertsChannel ? `alerts <#${c.alertsChannel}>` : null,
    ]
      .filter(Boolean)
      .join(' · ');
    return `*${c.name}* — ${state}${where ? `\n${where}` : ''}`;
  });
  return {
    text: `Clusters: ${clusters.map((c) => `${c.name} (${c.health.live ? 'agent live' : 'no agent'})`).join(', ')}`,
    blocks: lines.map((l) => section(l)),
  };
}
