/**
 * The playground's Slack workspace and the bot's config file: three people (two approvers, so the
 * two-person rule can be shown, and one who is not), a channel for commands, the alerts channel and
 * one channel the bot is not in; incidents after 5 s unready instead of 5 minutes.
 */
import { stringify } from 'yaml';
import type { Channel, Person } from '../slack-standin/message-store.js';

export const PEOPLE: Person[] = [
  { id: 'U0ALICE', name: 'alice', title: 'approver' },
  { id: 'U0BOB', name: 'bob', title: 'approver' },
  { id: 'U0CAROL', name: 'carol', title: 'not an approver' },
];

export const CHANNELS: Channel[] = [
  { id: 'C0MLPLATFORM', name: 'ml-platform', botMember: true },
  { id: 'C0ALERTS', name: 'isvc-alerts', botMember: true },
  { id: 'C0RANDOM', name: 'random', botMember: false },
];

export const ALERTS_CHANNEL = 'C0ALERTS';

/** The bot's config (`serve --config`): the same keys as any install, with playground values. */
export function playgroundBotConfig(options: { unreadyAfter?: string } = {}): string {
  return stringify({
    approvers: ['U0ALICE', 'U0BOB'],
    alerts: { channel: ALERTS_CHANNEL, unreadyAfter: options.unreadyAfter ?? '5s', groupWindow: '10s' },
    leaderElection: { namespace: 'default', leaseDuration: '5s' },
    queue: { concurrency: 4, attempts: 2, backoffMs: 500 },
    remediation: { twoPersonRule: true, proposalTtl: '30m', verifyTimeout: '45s', verifyPoll: '2s' },
  });
}
