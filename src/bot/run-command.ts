/**
 * What happens after a listener has acked: help and bad input get an ephemeral answer; diagnose and
 * status go to the queue. Whatever fails (Redis down, the bot not in the channel, Slack errors),
 * the user gets a plain ephemeral answer with a stable code, never a stack trace.
 */
import { QueueUnavailableError } from '../queue/queue-errors.js';
import { runRollout } from '../remediation/run-rollout.js';
import { renderHelp, renderJobFailed, renderNotInChannel, renderQueueUnavailable, renderUsageError, type SlackMessage } from '../render/slack/index.js';
import type { BotDeps } from './bot-deps.js';
import type { ParsedCommand } from './parse-command.js';
import { requestDiagnosis } from './request-diagnosis.js';
import { SlackPostError } from './slack-poster.js';

export interface CommandContext {
  channel: string;
  user: string;
  /** Set when asked inside a thread. */
  threadTs?: string;
  /** Answers only the asking user (response_url or chat.postEphemeral). */
  replyEphemeral(message: SlackMessage): Promise<unknown>;
}

export async function runCommand(deps: BotDeps, command: ParsedCommand, ctx: CommandContext): Promise<void> {
  const reply = (m: SlackMessage) => ctx.replyEphemeral(m).catch((e: unknown) => deps.logger.warn(`ephemeral reply failed: ${e instanceof Error ? e.message : String(e)}`));
  let outcome = 'ok';
  try {
    switch (command.kind) {
      case 'help':
        await reply(renderHelp());
        return;
      case 'invalid':
        outcome = 'invalid';
        await reply(renderUsageError(command.problem));
        return;
      case 'diagnose': {
        const done = await requestDiagnosis(deps, { target: command.target, channel: ctx.channel, user: ctx.user, ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}) });
        outcome = done.kind;
        return;
      }
      case 'rollout':
        if (!deps.remediation) {
          outcome = 'disabled';
          await reply(renderUsageError('Rollouts need remediations, which are not enabled on this bot (REMEDIATION_DISABLED).'));
          return;
        }
        await runRollout(deps.remediation, { target: command.target, op: command.op, channel: ctx.channel, user: ctx.user, ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}) });
        return;
      case 'status':
        await deps.queue.addStatus({ kind: 'status', namespace: command.namespace, channel: ctx.channel, user: ctx.user, ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}) });
        outcome = 'queued';
        return;
    }
  } catch (error) {
    outcome = errorCode(error);
    deps.logger.warn(`${command.kind} from ${ctx.user} in ${ctx.channel}: ${outcome}: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof QueueUnavailableError) await reply(renderQueueUnavailable());
    else if (error instanceof SlackPostError && error.code === 'SLACK_NOT_IN_CHANNEL') await reply(renderNotInChannel());
    else await reply(renderJobFailed(command.kind === 'diagnose' ? command.target : { namespace: '-', name: '-' }, outcome));
  } finally {
    deps.metrics.commandReceived(command.kind, outcome);
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'INTERNAL_ERROR';
}
