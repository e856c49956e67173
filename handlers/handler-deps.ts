/** What the Slack listeners need, built once by the composition root (src/app/serve.ts). */
import type { AfterAck } from '../src/bot/after-ack.js';
import type { CommandDeps } from '../src/commands/command.js';
import type { Logger } from '../src/core/logger.js';
import type { Click } from '../src/remediation/decide-proposal.js';
import type { RemediationDeps } from '../src/remediation/remediation-deps.js';
import type { SlackPoster } from '../src/slack/slack-poster.js';

export interface HandlerDeps {
  commands: CommandDeps;
  /** The answers listeners send themselves: ephemeral replies to mentions, refused clicks. */
  poster: SlackPoster;
  /** The approval flow (absent: the remediation buttons answer that it is off). */
  remediation?: RemediationDeps;
  /** Multi-cluster web process: clicks go to the proposal's cluster agent instead of `remediation`. */
  clicks?: (decision: 'approve' | 'reject', click: Click) => Promise<void>;
  /** Runs a listener's work after its ack, a few at a time. */
  afterAck: AfterAck;
  logger: Logger;
}

/** The request id the request-context middleware put on Bolt's context. */
export function requestIdOf(context: Record<string, unknown>): string | undefined {
  return typeof context.requestId === 'string' ? context.requestId : undefined;
}
