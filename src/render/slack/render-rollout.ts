/**
 * `/isvc rollout` messages (pure): one message with the revisions (role, spec % vs status %, ready
 * or why not) and the lag between spec and status, with Promote / Roll back buttons and a Set split
 * menu, each asking for that change (an approver applies the proposal that follows); the root of a
 * typed operation, the split as the object states it, notes.
 */
import type { TargetRef } from '../../core/target-ref.js';
import type { RolloutChange } from '../../remediation/remediation-events.js';
import type { RolloutView } from '../../remediation/rollout-view.js';
import { ROLLOUT_PROMOTE_ACTION, ROLLOUT_ROLLBACK_ACTION, ROLLOUT_SPLIT_ACTION } from '../../slack/action-ids.js';
import type { ActionElement, Block, SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { actions, button, targetValue } from './buttons.js';
import { focusLine } from '../../logs/focus-line.js';
import { escapeMrkdwn } from './limits.js';
import { renderInfoNote } from './render-notices.js';

const nameOf = (t: TargetRef) => `${t.namespace}/${t.name}`;
const SPLITS = [90, 75, 50, 25] as const;

export function renderRolloutStarted(target: TargetRef, user: string): SlackMessage {
  const who = escapeMrkdwn(nameOf(target));
  return {
    text: `Rollout of ${who} (requested by <@${user}>)`,
    blocks: [section(`🚦 Rollout of *${who}* (requested by <@${user}>)`)],
  };
}

function row(r: RolloutView['revisions'][number]): string {
  const state =
    r.ready === true
      ? '✅ ready'
      : r.ready === false
        ? `❌ not ready${r.cause ? `: ${escapeMrkdwn(focusLine(r.cause.replace(/\s*\n\s*/g, ' '), 160))}` : ''}`
        : `⏳ unknown${r.cause ? `: ${escapeMrkdwn(focusLine(r.cause, 160))}` : ''}`;
  const moved =
    r.specPercent === r.statusPercent ? `${r.statusPercent}%` : `${r.statusPercent}% (spec ${r.specPercent}%)`;
  return `• *${r.role}* \`${escapeMrkdwn(r.name)}\` — ${moved} · ${state}`;
}

const DONE: Record<string, string> = {
  'promote-canary': 'Promoted',
  'rollback-canary': 'Rolled back',
  'set-canary-traffic': 'Split changed',
};

function afterLine(after: RolloutChange): string {
  const what = `${DONE[after.action] ?? 'Changed'} by <@${after.by}> (\`${escapeMrkdwn(after.action)}\`)`;
  return after.ready
    ? `✅ ${what}; verified Ready. The split above is the one after the change.`
    : `⚠️ ${what}; not Ready after the change (the thread has the diagnosis). The split above is the one after the change.`;
}

/** Only the buttons that still do something: no canary, nothing to promote or roll back; a failing canary makes Roll back the primary action. */
function rolloutButtons(view: RolloutView, value: string): ActionElement[] {
  const canary = view.revisions.find((r) => r.role === 'canary');
  if (!canary) return [];
  const failing = canary.ready === false;
  const offers = (op: 'promote' | 'rollback' | 'split') => !view.ops || view.ops.includes(op);
  const elements: ActionElement[] = [];
  if (canary.specPercent < 100 && offers('promote'))
    elements.push(button(ROLLOUT_PROMOTE_ACTION, 'Promote the canary', value, failing ? undefined : 'primary'));
  if ((canary.specPercent > 0 || canary.statusPercent > 0) && offers('rollback'))
    elements.push(button(ROLLOUT_ROLLBACK_ACTION, 'Roll back', value, failing ? 'primary' : 'danger'));
  if (!offers('split')) return elements;
  elements.push({
    type: 'static_select',
    action_id: ROLLOUT_SPLIT_ACTION,
    placeholder: { type: 'plain_text', text: 'Set split…' },
    options: SPLITS.map((stable) => ({
      text: { type: 'plain_text', text: `${stable}% stable / ${100 - stable}% canary` },
      value: `${value} ${stable}/${100 - stable}`,
    })),
  });
  return elements;
}

/** The rollout in one message: the table, the lag, the buttons that still apply (and, after a change, what it did). */
export function renderRolloutView(
  target: TargetRef,
  view: RolloutView,
  user: string,
  after?: RolloutChange,
): SlackMessage {
  const who = escapeMrkdwn(nameOf(target));
  const split =
    view.splitText ??
    (view.canaryPercent === undefined
      ? 'no canary: all traffic to the latest revision'
      : `${view.splitField} ${view.canaryPercent}: ${100 - view.canaryPercent}% stable / ${view.canaryPercent}% canary`);
  const blocks: Block[] = [
    section(`🚦 *Rollout of ${who}* — ${escapeMrkdwn(split)}`),
    section(view.revisions.length > 0 ? view.revisions.map(row).join('\n') : '_No revision in its status yet._'),
  ];
  if (view.lag) blocks.push(context(`⏱️ Spec and status differ: ${escapeMrkdwn(view.lag)}.`));
  if (after) blocks.push(context(afterLine(after)));
  const value = targetValue(target);
  const elements = rolloutButtons(view, value);
  const canary = view.revisions.find((r) => r.role === 'canary');
  if (elements.length > 0) blocks.push(actions(`rollout:${value}`, elements));
  blocks.push(
    context(
      `Asked by <@${user}> · ${
        elements.length > 0
          ? `${canary?.ready === false && elements.some((e) => 'action_id' in e && e.action_id === ROLLOUT_ROLLBACK_ACTION) ? 'the canary is failing: rolling back is the safe action · ' : ''}each button proposes the change; an approver applies it`
          : 'no canary: nothing to promote or roll back'
      } · ${escapeMrkdwn(view.apiVersion)}`,
    ),
  );
  const text = `Rollout of ${who}: ${escapeMrkdwn(split)}; ${view.revisions.map((r) => `${r.role} ${escapeMrkdwn(r.name)} ${r.statusPercent}%${r.ready === false ? ' (not ready)' : ''}`).join(', ')}`;
  return { text: text.slice(0, 3000), blocks };
}

/** `lines`: the spec's canaryTrafficPercent first, then the revisions in status. */
export function renderTrafficSplit(target: TargetRef, apiVersion: string, lines: string[]): SlackMessage {
  const who = nameOf(target);
  const bullets = lines.map((l) => `• ${escapeMrkdwn(l)}`);
  return {
    text: escapeMrkdwn(`TRAFFIC_SPLIT of ${who}: ${lines[0] ?? ''}`),
    blocks: [section(`ℹ️ *\`TRAFFIC_SPLIT\`* of ${escapeMrkdwn(who)} (${apiVersion})\n${bullets.join('\n')}`)],
  };
}

export function renderRolloutUnreadable(target: TargetRef, code: string): SlackMessage {
  return renderInfoNote(`${code}: cannot read InferenceService ${nameOf(target)}`);
}

export function renderRolloutOpNotOffered(action: string, code: string, message?: string): SlackMessage {
  return renderInfoNote(`${action}: not offered (${code})${message ? `: ${message}` : ''}`);
}
