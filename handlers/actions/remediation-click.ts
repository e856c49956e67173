/**
 * Shared by the Approve and Reject buttons: ack at once, read the opaque proposal id and who
 * clicked where, then hand over to the remediation flow after the ack.
 */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { errorCode, errorMessage } from '../../src/core/error-message.js';
import type { Click, ClickResult } from '../../src/remediation/decide-proposal.js';
import type { RemediationDeps } from '../../src/remediation/remediation-deps.js';
import { renderRefusal } from '../../src/render/slack/render-proposal.js';
import { requestIdOf, type HandlerDeps } from '../handler-deps.js';

export type ClickHandler = (deps: RemediationDeps, click: Click) => Promise<ClickResult>;

export function remediationClick(deps: HandlerDeps, handle: ClickHandler, name: string) {
  return async ({
    ack,
    body,
    action,
    context,
  }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const requestId = requestIdOf(context);
    if (!body?.user?.id) return; // a malformed payload: acked, nothing to do
    const click: Click = {
      proposalId: proposalIdOf(action?.value),
      user: body.user.id,
      channel: body.channel?.id ?? body.container?.channel_id ?? '',
      ...(body.message?.ts ? { messageTs: body.message.ts } : {}),
      ...(requestId ? { requestId } : {}),
    };
    await deps.afterAck(async () => {
      if (deps.clicks) {
        await deps.clicks(name.endsWith('reject') ? 'reject' : 'approve', click).catch(async (error: unknown) => {
          deps.logger.warn(`${name} ${click.proposalId} by ${click.user}: ${errorCode(error)}: ${errorMessage(error)}`);
          await deps.poster
            .ephemeral(
              click.channel,
              click.user,
              renderRefusal(errorCode(error), 'the click could not be handed to its cluster, try again'),
            )
            .catch(() => undefined);
        });
        return;
      }
      if (!deps.remediation) {
        await deps.poster.ephemeral(
          click.channel,
          click.user,
          renderRefusal('REMEDIATION_DISABLED', 'remediations are not enabled on this bot'),
        );
        return;
      }
      try {
        const result = await handle(deps.remediation, click);
        deps.logger.info(
          `${name} ${click.proposalId} by ${click.user}: ${result.kind}${'code' in result ? ` ${result.code}` : ''}`,
        );
      } catch (error) {
        const code = errorCode(error);
        deps.logger.warn(`${name} ${click.proposalId} by ${click.user}: ${code}: ${errorMessage(error)}`);
        await deps.poster
          .ephemeral(click.channel, click.user, renderRefusal(code, 'the click could not be handled, try again'))
          .catch(() => undefined);
      }
    });
  };
}

/** A proposal id is short (rp- and 16 characters); a longer value is kept cut (never whole in a log line) and marked so it matches no proposal. */
function proposalIdOf(value: unknown): string {
  const v = typeof value === 'string' ? value : '';
  return v.length > 64 ? `${v.slice(0, 64)}…` : v;
}
