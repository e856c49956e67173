/**
 * Helpers for the remediation end-to-end tests: signed `block_actions` payloads (form-encoded
 * `payload=` JSON, as Slack sends button clicks), finding the proposal the bot posted, and the
 * simulator's write requests.
 */
import type { RecordedRequest } from '../../src/simulator/simulator.js';
import { signedHeaders } from '../support/slack-signing.js';
import type { FakeSlackApi, RecordedCall } from '../support/fake-slack-api.js';

export interface ClickFields {
  actionId:
    | 'remediation.approve'
    | 'remediation.reject'
    | 'diagnosis.rerun'
    | 'incident.mute'
    | 'rollout.promote'
    | 'rollout.rollback'
    | 'rollout.split';
  value: string;
  /** A static select's chosen option (the value is then that option's value). */
  select?: boolean;
  user: string;
  channel: string;
  /** The ts of the clicked message; by default that of the proposal message whose buttons carry `value` (as Slack sends it). */
  messageTs?: string;
}

/** Proposal id → ts of the message that carries its buttons, learnt by `proposalIdOf`. */
const messageTsOfProposal = new Map<string, string>();

export function blockActionsBody(f: ClickFields): string {
  const messageTs = f.messageTs ?? messageTsOfProposal.get(f.value) ?? '1.1';
  const payload = {
    type: 'block_actions',
    team: { id: 'T0TEST', domain: 'test' },
    user: { id: f.user, username: f.user.toLowerCase(), team_id: 'T0TEST' },
    api_app_id: 'A0APP',
    token: 'deprecated-verification-token',
    container: { type: 'message', message_ts: messageTs, channel_id: f.channel, is_ephemeral: false },
    trigger_id: '1.2.3',
    channel: { id: f.channel, name: 'general' },
    message: { type: 'message', ts: messageTs, text: 'proposal' },
    response_url: 'http://127.0.0.1:1/respond/none',
    actions: [
      f.select
        ? {
            action_id: f.actionId,
            block_id: `rollout:${f.value}`,
            type: 'static_select',
            selected_option: { text: { type: 'plain_text', text: 'x' }, value: f.value },
            action_ts: String(Date.now() / 1000),
          }
        : {
            action_id: f.actionId,
            block_id: `remediation:${f.value}`,
            text: { type: 'plain_text', text: 'x' },
            value: f.value,
            type: 'button',
            action_ts: String(Date.now() / 1000),
          },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export async function postSignedClick(eventsUrl: string, secret: string, f: ClickFields): Promise<number> {
  const body = blockActionsBody(f);
  const res = await fetch(eventsUrl, { method: 'POST', headers: signedHeaders(secret, body), body });
  await res.text();
  return res.status;
}

/** Thread messages that carry remediation buttons, in order. */
export function proposalMessages(slack: FakeSlackApi, channel: string): RecordedCall[] {
  return slack
    .callsTo('chat.postMessage')
    .filter((c) => c.body.channel === channel && JSON.stringify(c.body.blocks ?? []).includes('remediation.approve'));
}

export function proposalIdOf(call: RecordedCall): string {
  const actions = (
    call.body.blocks as Array<{ type: string; elements?: Array<{ action_id?: string; value?: string }> }>
  ).find((b) => b.type === 'actions')!;
  const id = actions.elements!.find((e) => e.action_id === 'remediation.approve')!.value!;
  if (call.response?.ts) messageTsOfProposal.set(id, String(call.response.ts));
  return id;
}

/** Real (not dry-run) writes the simulator served: patch, update, delete, create (events excluded unless asked). */
export function writes(
  requests: RecordedRequest[],
  options: { verb?: string; resource?: string; events?: boolean } = {},
): RecordedRequest[] {
  return requests.filter(
    (r) =>
      ['patch', 'update', 'delete', 'create'].includes(r.verb) &&
      r.query.dryRun === undefined &&
      (options.events || r.resource !== 'events') &&
      (!options.verb || r.verb === options.verb) &&
      (!options.resource || r.resource === options.resource),
  );
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
