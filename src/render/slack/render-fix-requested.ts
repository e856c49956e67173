/** The root message of a fix an assistant or agent asked for over MCP (pure); the proposal follows in its thread. */
import type { TargetRef } from '../../core/target-ref.js';
import type { SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { escapeMrkdwn } from './limits.js';
import { requesterText } from './render-proposal.js';

export function renderFixRequested(e: {
  target: TargetRef;
  requester: string;
  action: string;
  findingCode: string | null;
}): SlackMessage {
  const who = escapeMrkdwn(`${e.target.namespace}/${e.target.name}`);
  const why = e.findingCode ? ` for \`${escapeMrkdwn(e.findingCode)}\`` : '';
  return {
    text: `Fix requested for ${who}: ${e.action}${e.findingCode ? ` for ${e.findingCode}` : ''}`,
    blocks: [
      section(`🤖 *${who}*: ${requesterText(e.requester)} asks for \`${escapeMrkdwn(e.action)}\`${why}`),
      context('Nothing has changed: the proposal is in the thread, and only an approver can apply it.'),
    ],
  };
}
