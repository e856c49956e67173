/**
 * Remediation messages (pure): the proposal in the thread (the change as a before/after diff, the
 * object, the risk, Approve / Reject buttons whose value is only the opaque proposal id, a confirm
 * dialog on the risky ones), the same message once decided (no buttons, who and when), the
 * ephemeral refusals, the applied / failed notes and the verification outcome.
 */
import { diffLines } from '../../changes/field-changes.js';
import { restartWaitsForFix } from '../../findings/catalog.js';
import { actionById } from '../../remediation/actions/index.js';
import { INCIDENT_REQUESTER, type Proposal, type ProposalState } from '../../remediation/proposal.js';
import type { VerifyOutcome } from '../../remediation/remediation-events.js';
import { APPROVE_ACTION, REJECT_ACTION } from '../../slack/action-ids.js';
import type { ActionsBlock, Block, Button, SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { cut, escapeCode, escapeMrkdwn, SLACK_LIMITS } from './limits.js';
import { renderInfoNote } from './render-notices.js';

const RISK_ICON = { low: '🟢', medium: '🟠', high: '🔴' } as const;

function objectLine(p: Proposal): string {
  const t = p.plan.target;
  return `*Object:* \`${t.kind} ${t.namespace}/${t.name}\` (${t.apiVersion}, resourceVersion ${p.plan.resourceVersion})`;
}

/** What checked the change shown: the API server's dry run when planned, or the objects just read (the dry run comes on approval). */
function checkedBy(p: Proposal): string {
  return p.plan.checkedBy === 'reads'
    ? 'computed from the objects just read; the API server dry-runs it when approved, before the write'
    : 'dry run accepted by the API server';
}

function diffBlock(p: Proposal): string {
  const lines = diffLines(p.plan.changes, 300)
    .slice(0, 60)
    .map((l) => escapeCode(l));
  return cut(`*Change* (${checkedBy(p)}):\n\`\`\`\n${lines.join('\n')}\n\`\`\``, SLACK_LIMITS.sectionText);
}

function heading(p: Proposal): string {
  const why = p.findingCode ? ` for \`${p.findingCode}\`` : '';
  const first = restartAfterFix(p) ? '_After you fix the cause (the next step above)_: ' : '';
  return `🛠️ *Proposed fix*${why}: ${first}${escapeMrkdwn(cut(p.plan.summary, 500))} · \`${p.action}\``;
}

const params = (p: Proposal) => ({ ...p.params, ...p.plan.params });

/** A restart offered for a cause in the spec or the storage helps only once that is fixed. */
export const restartAfterFix = (p: Proposal): boolean =>
  p.action === 'restart-pods' && restartWaitsForFix(p.findingCode);

/** The Approve button says what it does ("Raise to 512Mi", "Roll back to …"): the action's own words. */
export function approveLabel(p: Proposal): string {
  return actionById(p.action)?.label(p.plan, params(p), p.findingCode) ?? 'Approve';
}

function buttons(p: Proposal): ActionsBlock {
  const approve: Button = {
    type: 'button',
    action_id: APPROVE_ACTION,
    text: { type: 'plain_text', text: cut(`✅ ${approveLabel(p)}`, 75), emoji: true },
    // a change aimed at something failing is never the highlighted action
    ...(p.plan.targetState ? {} : { style: 'primary' as const }),
    value: p.id,
  };
  if (p.plan.risk !== 'low' || p.plan.targetState) {
    approve.confirm = {
      title: { type: 'plain_text', text: 'Apply this change?' },
      text: {
        type: 'mrkdwn',
        text: cut(
          `${p.plan.targetState ? `⚠️ Now: ${escapeMrkdwn(cut(p.plan.targetState, 140))}\n` : ''}${escapeMrkdwn(p.plan.summary)}\n${RISK_ICON[p.plan.risk]} Risk ${p.plan.risk}: ${escapeMrkdwn(p.plan.riskNote)}`,
          300,
        ),
      },
      confirm: { type: 'plain_text', text: 'Apply' },
      deny: { type: 'plain_text', text: 'Cancel' },
      style: p.plan.risk === 'high' ? 'danger' : 'primary',
    };
  }
  const reject: Button = {
    type: 'button',
    action_id: REJECT_ACTION,
    text: { type: 'plain_text', text: 'Reject' },
    value: p.id,
  };
  return { type: 'actions', block_id: `remediation:${p.id}`, elements: [approve, reject] };
}

function body(p: Proposal): Block[] {
  return [
    section(heading(p)),
    ...(p.plan.targetState ? [section(`⚠️ *Before the change:* ${escapeMrkdwn(cut(p.plan.targetState, 500))}`)] : []),
    section(`${objectLine(p)}\n${diffBlock(p)}`),
    context(`${RISK_ICON[p.plan.risk]} Risk ${p.plan.risk}: ${escapeMrkdwn(cut(p.plan.riskNote, 600))}`),
  ];
}

const STATE_LINE: Record<ProposalState, (by: string) => string> = {
  pending: () => '',
  approved: (by) => `✅ Approved by ${by}; applying…`,
  applying: (by) => `✅ Approved by ${by}; applying…`,
  applied: (by) => `✅ Approved by ${by}; applied`,
  verified: (by) => `✅ Approved by ${by}; applied and verified`,
  failed: (by) => `⚠️ Approved by ${by}; the change failed`,
  rejected: (by) => `🚫 Rejected by ${by}`,
  expired: () => '⌛ Expired: nothing was changed',
  superseded: () => '♻️ The object changed since this plan; nothing was changed. A new proposal follows in the thread.',
};

/** A Slack user as a mention; an assistant or agent over MCP ("mcp:NAME") by its token's name. */
export function requesterText(requester: string): string {
  return requester.startsWith('mcp:')
    ? `an assistant over MCP (${escapeMrkdwn(requester.slice(4))})`
    : `<@${requester}>`;
}

/** Who this proposal is for: the requester, the click that re-planned it, or the incident it was offered with. */
function requestedBy(p: Proposal): string {
  const first =
    p.requester === INCIDENT_REQUESTER ? 'offered with the incident' : `requested by ${requesterText(p.requester)}`;
  if (p.replannedBy) return `Re-planned after <@${p.replannedBy}>'s click found the object changed (first ${first}).`;
  return p.requester === INCIDENT_REQUESTER
    ? 'Offered with the incident.'
    : `Requested by ${requesterText(p.requester)}.`;
}

export function renderProposal(p: Proposal, now = Date.now()): SlackMessage {
  const minutes = Math.max(1, Math.round((p.expiresAt - now) / 60_000));
  const expires = `<!date^${Math.floor(p.expiresAt / 1000)}^{time}|in ${minutes} min>`;
  return {
    text: escapeMrkdwn(
      `Proposed remediation ${p.action}${p.findingCode ? ` for ${p.findingCode}` : ''} on ${p.target.namespace}/${p.target.name}: ${cut(p.plan.summary, 300)}`,
    ),
    blocks: [...body(p), context(`Only approvers can apply it; it expires ${expires}. ${requestedBy(p)}`), buttons(p)],
  };
}

/** The proposal message after a decision: no buttons, who decided and when. */
export function renderProposalDecided(
  p: Proposal,
  state: ProposalState,
  by: string | null,
  note?: string,
): SlackMessage {
  const who = by ? `<@${by}>` : 'isvc-doctor';
  const line = STATE_LINE[state](who);
  return {
    text: `${escapeMrkdwn(`Remediation ${p.action} on ${p.target.namespace}/${p.target.name}: ${state}`)}${by ? ` by <@${by}>` : ''}`,
    blocks: [...body(p), context(`${line}${note ? ` — ${escapeMrkdwn(cut(note, 500))}` : ''}`)],
  };
}

/** A user, or a user group, as Slack shows it (ids only: anything else is left out). */
const mention = (id: string) =>
  /^[UW][A-Z0-9]{2,20}$/.test(id) ? `<@${id}>` : /^S[A-Z0-9]{2,20}$/.test(id) ? `<!subteam^${id}>` : null;

export function renderRefusal(
  code: string,
  message: string,
  approvers: string[] = [],
  decidedBy?: string,
): SlackMessage {
  const who = approvers.flatMap((id) => mention(id) ?? []).slice(0, 8);
  const decider = decidedBy ? mention(decidedBy) : null;
  const text = `${escapeMrkdwn(`Not done (${code}): ${cut(message, 500)}`)}${decider ? ` (by ${decider})` : ''}. Nothing was changed.${who.length ? ` Who may approve: ${who.join(', ')}.` : ''}`;
  return { text, blocks: [section(`🚫 ${text}`)] };
}

/** The API server refused an approved proposal's dry run, right before the write: nothing was written. */
export function renderDryRunRefused(p: Proposal, by: string, code: string, reason: string): SlackMessage {
  const t = p.plan.target;
  const text = `${escapeMrkdwn(`The API server refused ${p.action} on ${t.kind} ${t.namespace}/${t.name} in its dry run before the write (${code}: ${cut(reason, 500)}), so nothing was changed.`)} Approved by <@${by}>.`;
  return { text, blocks: [section(`🚫 ${text}`)] };
}

export function renderApplyOutcome(
  p: Proposal,
  by: string,
  outcome: 'applied' | 'failed',
  detail: string,
): SlackMessage {
  const t = p.plan.target;
  const text =
    outcome === 'applied'
      ? `Applied ${escapeMrkdwn(`${p.action} to ${t.kind} ${t.namespace}/${t.name}`)}, approved by <@${by}>. Verifying…`
      : escapeMrkdwn(
          `The remediation ${p.action} on ${t.kind} ${t.namespace}/${t.name} failed (${cut(detail, 500)}). Nothing else was changed.`,
        );
  return {
    text,
    blocks: [
      section(`${outcome === 'applied' ? '🛠️' : '⚠️'} ${text}`),
      ...(outcome === 'applied' && detail ? [context(escapeMrkdwn(cut(detail, 500)))] : []),
    ],
  };
}

export function renderVerification(p: Proposal, outcome: VerifyOutcome, waitedSeconds: number): SlackMessage {
  const verified = p.plan.verifies ?? p.target;
  const who = `${verified.namespace}/${verified.name}`;
  let text: string;
  if (outcome.kind === 'fixed' && p.plan.verifies)
    text = `✅ Verified: ${who} is Ready with nothing wrong after ${p.action} on ${p.plan.target.name} (checked after ${waitedSeconds}s).`;
  else if (outcome.kind === 'fixed')
    text = `✅ Verified: ${who} is Ready after ${p.action} (ISVC_READY, checked after ${waitedSeconds}s).`;
  else if (outcome.kind === 'same')
    text = `❌ Not fixed yet: ${who} ${outcome.report.ready ? 'is Ready, but' : 'is still not ready,'} root cause still ${outcome.report.rootCause ?? 'unknown'} after ${waitedSeconds}s.`;
  // a rollout's proposal is for no finding (findingCode null): its root cause is not "new"
  else if (outcome.kind === 'new-root-cause' && p.findingCode === null)
    text = `❌ ${who} is not ready after ${p.action}: root cause ${outcome.report.rootCause ?? 'unknown'} (${cut(outcome.report.findings[0]?.title ?? '', 300)}).`;
  else if (outcome.kind === 'new-root-cause')
    text = `⚠️ ${who} is still not ready after ${p.action}: new root cause ${outcome.report.rootCause ?? 'unknown'} (${cut(outcome.report.findings[0]?.title ?? '', 300)}).`;
  else text = `❔ Could not verify ${who}: ${outcome.reason}.`;
  const safe = escapeMrkdwn(cut(text, 2900));
  return { text: safe, blocks: [section(safe)] };
}

/** A fix a finding offers that could not be planned: its code instead of buttons. */
export function renderOfferNotPlanned(findingCode: string, code: string, message: string): SlackMessage {
  return renderInfoNote(`No automatic fix offered for ${findingCode} (${code}): ${message}`);
}

export function renderReplanFailed(p: Proposal, code: string, message: string): SlackMessage {
  return renderInfoNote(`Re-planning ${p.action} after the change gave no new proposal (${code}): ${message}`);
}
