/**
 * Fakes for the Slack listeners' unit tests: HandlerDeps whose parts record what they are handed,
 * in one `order` list shared with the fake `ack` (so a test sees that the ack came first), and an
 * `afterAck` that runs the work at once and keeps its promise (`settled()` waits for it).
 */
import { jest } from '@jest/globals';
import type { CommandDeps } from '../../src/commands/command.js';
import type { Logger } from '../../src/core/logger.js';
import type { ClusterJobQueue } from '../../src/queue/cluster-job-queue.js';
import type { SlackMessage } from '../../src/slack/slack-message.js';
import type { HandlerDeps } from '../../handlers/handler-deps.js';

export interface Ephemeral {
  channel: string;
  user: string;
  message: SlackMessage;
  threadTs: string | undefined;
}

export interface HandlerFakes {
  deps: HandlerDeps;
  /** What happened, in order: `ack`, `afterAck`, `queue.add`, `ephemeral`, `respond`, `clicks`. */
  order: string[];
  /** Bolt's ack, as a listener receives it. */
  ack: jest.Mock<() => Promise<void>>;
  /** The job data the commands queued through `deps.commands.queue`. */
  added: unknown[];
  ephemerals: Ephemeral[];
  logged: Array<{ level: keyof Logger; message: string }>;
  /** Resolves when every piece of work handed to `afterAck` has run. */
  settled(): Promise<void>;
}

export function handlerFakes(extra: Pick<HandlerDeps, 'remediation' | 'clicks'> = {}): HandlerFakes {
  const order: string[] = [];
  const added: unknown[] = [];
  const ephemerals: Ephemeral[] = [];
  const logged: HandlerFakes['logged'] = [];
  const pending: Promise<void>[] = [];
  const log =
    (level: keyof Logger) =>
    (message: string): void =>
      void logged.push({ level, message });
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  // the only part of the queue a status command touches
  const queue = {
    add: async (data: unknown) => {
      order.push('queue.add');
      added.push(data);
      return { jobId: 'j-1', created: true };
    },
  } as unknown as ClusterJobQueue;
  const commands: CommandDeps = {
    config: { namespaces: null },
    diagnoses: { queue, notify: async () => null },
    queue,
    metrics: { commandReceived: () => undefined },
    logger,
  };
  const notForListeners = async (): Promise<never> => {
    throw new Error('listeners only answer ephemerally');
  };
  const deps: HandlerDeps = {
    commands,
    poster: {
      post: notForListeners,
      update: notForListeners,
      ephemeral: async (channel, user, message, threadTs) => {
        order.push('ephemeral');
        ephemerals.push({ channel, user, message, threadTs });
      },
    },
    afterAck: (work) => {
      order.push('afterAck');
      const done = work();
      pending.push(done);
      return done;
    },
    logger,
    ...extra,
  };
  const ack = jest.fn(async () => void order.push('ack'));
  return { deps, order, ack, added, ephemerals, logged, settled: async () => void (await Promise.all(pending)) };
}

/** A listener's arguments from the parts it reads (Bolt's full argument object has many more). */
export function listenerArgs<L extends (args: never) => unknown>(_listener: L, args: object): Parameters<L>[0] {
  return args as Parameters<L>[0];
}

/** A block_actions payload as Slack sends it for a button (value as given) on a channel message. */
export function buttonClick(actionId: string, value: unknown, user: string | null = 'U2') {
  const action = {
    type: 'button',
    action_id: actionId,
    block_id: 'b1',
    text: { type: 'plain_text', text: 'Button' },
    value,
    action_ts: '1700000200.000300',
  };
  const body = {
    type: 'block_actions',
    ...(user ? { user: { id: user, username: 'bo', team_id: 'T1' } } : {}),
    api_app_id: 'A1',
    token: 'verification-token',
    container: { type: 'message', message_ts: '1700000100.000200', channel_id: 'C1', is_ephemeral: false },
    trigger_id: '1.2.3',
    team: { id: 'T1', domain: 'acme' },
    channel: { id: 'C1', name: 'ml-ops' },
    message: { type: 'message', ts: '1700000100.000200', text: 'proposal', blocks: [] },
    response_url: 'https://hooks.slack.com/actions/T1/1/x',
    actions: [action],
  };
  return { ack: undefined, action, body, payload: action, context: { requestId: 'r-0123456789ab' } };
}
