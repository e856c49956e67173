/** The commands' ephemeral answers on Slack (rendered here, sent by the listener: response_url or chat.postEphemeral). */
import type { CommandReply } from '../commands/command.js';
import { humanDuration } from '../core/duration.js';
import { context, section } from '../render/slack/block-kit.js';
import { renderHelp, renderJobFailed, renderNotInChannel, renderQueueUnavailable, renderUsageError } from '../render/slack/render-notices.js';
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
        ? renderUsageError('Rollouts need remediations, which are not enabled on this bot (REMEDIATION_DISABLED).', reply.usage)
        : note('Automatic incidents are not enabled on this bot (INCIDENTS_DISABLED): set alerts.channel in its config.');
    case 'muted': {
      const span = reply.durationMs === null ? 'until `/isvc unmute`' : `for ${humanDuration(reply.durationMs)}`;
      return { text: `🔕 Muted ${reply.key} ${span}: no automatic incident posts for it.`, blocks: [section(`🔕 Muted *${reply.key}* ${span}: no automatic incident posts for it.`), context('_An incident already open for it still says when it recovers._')] };
    }
    case 'unmuted':
      return note(reply.wasMuted ? `🔔 Unmuted ${reply.key}: automatic incident posts are back on.` : `${reply.key} was not muted.`);
    case 'queue-unavailable':
      return renderQueueUnavailable();
    case 'not-in-channel':
      return renderNotInChannel();
    case 'failed':
      return renderJobFailed(reply.target ?? { namespace: '-', name: '-' }, reply.code);
  }
}
