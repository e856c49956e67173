/** `/isvc rollout` messages (pure): the root message, the traffic split as the object states it, notes. */
import type { TargetRef } from '../../core/target-ref.js';
import type { SlackMessage } from '../../slack/slack-message.js';
import { section } from './block-kit.js';
import { escapeMrkdwn } from './limits.js';
import { renderInfoNote } from './render-notices.js';

const nameOf = (t: TargetRef) => `${t.namespace}/${t.name}`;

export function renderRolloutStarted(target: TargetRef, user: string): SlackMessage {
  const who = nameOf(target);
  return { text: `Rollout of ${escapeMrkdwn(who)} (requested by <@${user}>)`, blocks: [section(`🚦 Rollout of *${escapeMrkdwn(who)}* (requested by <@${user}>)`)] };
}

/** `lines`: the spec's canaryTrafficPercent first, then the revisions in status. */
export function renderTrafficSplit(target: TargetRef, apiVersion: string, lines: string[]): SlackMessage {
  const who = nameOf(target);
  const bullets = lines.map((l) => `• ${escapeMrkdwn(l)}`);
  return { text: escapeMrkdwn(`TRAFFIC_SPLIT of ${who}: ${lines[0] ?? ''}`), blocks: [section(`ℹ️ *\`TRAFFIC_SPLIT\`* of ${escapeMrkdwn(who)} (${apiVersion})\n${bullets.join('\n')}`)] };
}

export function renderRolloutUnreadable(target: TargetRef, code: string): SlackMessage {
  return renderInfoNote(`${code}: cannot read InferenceService ${nameOf(target)}`);
}

export function renderRolloutOpNotOffered(action: string, code: string, message?: string): SlackMessage {
  return renderInfoNote(`${action}: not offered (${code})${message ? `: ${message}` : ''}`);
}
