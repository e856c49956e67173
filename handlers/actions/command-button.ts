/**
 * Buttons that run a command as if the person who clicked had typed it (Re-diagnose, Mute 1h, the
 * rollout buttons): ack at once, build the command text from the button's value (only a target,
 * checked by the command's own parser), run it after the ack in the message's thread. Answers only
 * the clicker sees go to them ephemerally, where they clicked (beside a root message, not in its thread).
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  StaticSelectAction,
} from '@slack/bolt';
import { clusterNamedIn } from '../../src/clusters/cluster-named-poster.js';
import { runCommand } from '../../src/commands/index.js';
import { errorMessage } from '../../src/core/error-message.js';
import { renderCommandReply } from '../../src/notify/slack-command-replies.js';
import { requestIdOf, type HandlerDeps } from '../handler-deps.js';

/** What a button's value may hold: `namespace/name`, optionally a split like `90/10`. */
const VALUE = /^[a-z0-9][a-z0-9.-]{0,252}\/[a-z0-9][a-z0-9.-]{0,252}(?: \d{1,3}\/\d{1,3})?$/;

export function commandButton(deps: HandlerDeps, toCommand: (value: string) => string) {
  return async ({
    ack,
    body,
    action,
    context,
  }: SlackActionMiddlewareArgs<BlockAction<ButtonAction | StaticSelectAction>> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const value = action.type === 'static_select' ? (action.selected_option?.value ?? '') : String(action.value ?? '');
    const channel = body.channel?.id ?? body.container?.channel_id ?? '';
    const user = body.user.id;
    const message = body.message as { ts?: string; thread_ts?: string } | undefined;
    const threadTs = message?.thread_ts ?? message?.ts;
    if (!VALUE.test(value) || !channel) {
      deps.logger.warn(`button ${action.action_id} by ${user}: value refused (${value.length} characters)`);
      return;
    }
    const requestId = requestIdOf(context);
    // multi-cluster: the button acts on the cluster its message names
    const cluster = deps.commands.clusters ? clusterNamedIn(body.message) : null;
    // not awaited: the listener returns once the work is queued; a failure is logged
    void deps
      .afterAck(() =>
        runCommand(`${toCommand(value)}${cluster ? ` --cluster ${cluster}` : ''}`, {
          deps: deps.commands,
          channel,
          user,
          ...(threadTs ? { threadTs } : {}),
          ...(message?.ts ? { clickedTs: message.ts } : {}),
          ...(requestId ? { requestId } : {}),
          // where the clicked message is (a root message's button: the channel, not its collapsed thread)
          reply: (r) => deps.poster.ephemeral(channel, user, renderCommandReply(r), message?.thread_ts),
        }),
      )
      .catch((error: unknown) => deps.logger.error(`button ${action.action_id} by ${user}: ${errorMessage(error)}`));
  };
}
