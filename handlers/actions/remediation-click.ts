/**
 * Shared by the Approve and Reject buttons: ack at once, read the opaque proposal id and who
 * clicked where, then hand over to the remediation flow after the ack.
 */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { BotDeps } from '../../src/bot/bot-deps.js';
import type { Click, ClickResult } from '../../src/remediation/decide-proposal.js';
import type { RemediationDeps } from '../../src/remediation/remediation-deps.js';
import { renderRefusal } from '../../src/render/slack/render-proposal.js';

export type ClickHandler = (deps: RemediationDeps, click: Click) => Promise<ClickResult>;

export function remediationClick(deps: BotDeps, handle: ClickHandler, name: string) {
  return async ({ ack, body, action }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const click: Click = { proposalId: String(action.value ?? ''), user: body.user.id, channel: body.channel?.id ?? body.container?.channel_id ?? '', ...(body.message?.ts ? { messageTs: body.message.ts } : {}) };
    deps.afterAck(async () => {
      if (!deps.remediation) {
        await deps.poster.ephemeral(click.channel, click.user, renderRefusal('REMEDIATION_DISABLED', 'remediations are not enabled on this bot'));
        return;
      }
      try {
        const result = await handle(deps.remediation, click);
        deps.logger.info(`${name} ${click.proposalId} by ${click.user}: ${result.kind}${'code' in result ? ` ${result.code}` : ''}`);
      } catch (error) {
        const code = ((error as { code?: unknown }).code as string | undefined) ?? 'INTERNAL_ERROR';
        deps.logger.warn(`${name} ${click.proposalId} by ${click.user}: ${code}: ${error instanceof Error ? error.message : String(error)}`);
        await deps.poster.ephemeral(click.channel, click.user, renderRefusal(typeof code === 'string' ? code : 'INTERNAL_ERROR', 'the click could not be handled, try again')).catch(() => undefined);
      }
    });
  };
}
