/**
 * The one registry of the bot's commands: `/isvc …` and `@isvc-doctor …` both run `runCommand`,
 * help and usage errors are generated from the usage lines here, and a command that is not listed
 * does not exist (a test checks every file is registered).
 */
import { errorCode, errorMessage } from '../core/error-message.js';
import { apiFaultOf } from '../queue/api-fault.js';
import { commandFailureOf } from '../queue/command-failure.js';
import { QueueUnavailableError } from '../queue/queue-errors.js';
import { SlackPostError } from '../slack/slack-poster.js';
import { isProblem, type Command, type CommandContext, type CommandDeps } from './command.js';
import { clusters } from './clusters.js';
import { commandProgress } from './command-progress.js';
import { diagnose } from './diagnose.js';
import { help } from './help.js';
import { mute } from './mute.js';
import { rollout } from './rollout.js';
import { routeCluster } from './route-cluster.js';
import { commandWords, splitArgs, withoutClusterFlag } from './split-args.js';
import { status } from './status.js';
import { unmute } from './unmute.js';

export const COMMANDS: readonly Command<any>[] = [diagnose, status, rollout, mute, unmute, clusters, help];

export const USAGE: readonly string[] = COMMANDS.map((c) => c.usage);

export type ParsedCommand =
  | { command: Command<unknown>; input: unknown; cluster?: string }
  | { problem: string; command: Command<unknown> | null };

export function findCommand(word: string): Command<unknown> | undefined {
  return COMMANDS.find((c) => c.name === word || c.aliases?.includes(word));
}

/** A command's text (a mention stripped of the bot's mention): which command, with what input, or what is wrong. */
export function parseCommand(text: string, config: CommandDeps['config']): ParsedCommand {
  const words = commandWords(text);
  const sub = (words[0] ?? help.name).toLowerCase();
  const found = findCommand(sub);
  if (!found) return { problem: `Unknown subcommand "${sub.slice(0, 40)}".`, command: null };
  const args = splitArgs(words.slice(1));
  if (args.problem) return { problem: args.problem, command: found };
  const input = found.parse(args, config);
  if (isProblem(input)) return { problem: input.problem, command: found };
  return { command: found, input, ...(args.cluster !== undefined ? { cluster: args.cluster } : {}) };
}

/**
 * Parses and runs a command after the ack. Bad input gets an ephemeral usage error; whatever fails
 * (Redis down, the bot not in the channel, Slack errors) gets a plain ephemeral answer with a
 * stable code, never a stack trace; a Kubernetes API fault says why, what was tried and when to ask
 * again. A command that takes a moment or hands over to a job tells the asker it is at work first
 * (command-progress.ts).
 */
export async function runCommand(text: string, ctx: Omit<CommandContext, 'usage'>): Promise<void> {
  const { deps } = ctx;
  const reply: CommandContext['reply'] = (r) =>
    ctx.reply(r).catch((e: unknown) => deps.logger.warn(`ephemeral reply failed: ${errorMessage(e)}`));
  const parsed = parseCommand(text, deps.config);
  if ('problem' in parsed) {
    await reply({
      kind: 'usage-error',
      problem: parsed.problem,
      usage: parsed.command ? [parsed.command.usage] : USAGE,
    });
    deps.metrics.commandReceived('invalid', 'invalid');
    return;
  }
  let outcome = 'ok';
  const progress = commandProgress(text.trim(), reply, {
    quiet: ctx.progressShown === true || parsed.command.progress === 'own',
  });
  let cluster = deps.clusterName ?? null;
  try {
    const routed = await routeCluster(parsed.command, parsed.cluster, ctx.channel, deps);
    if ('cluster' in routed && routed.cluster !== null) cluster = routed.cluster;
    if ('reply' in routed) {
      await progress.reply(routed.reply);
      outcome = routed.outcome;
    } else if (routed.cluster !== null && parsed.command.cluster === 'forward') {
      // the cluster's agent runs it (it reads the cluster): the same text, minus --cluster
      await routed.deps.queue.add({
        kind: 'command',
        text: withoutClusterFlag(text),
        channel: ctx.channel,
        user: ctx.user,
        ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}),
        ...(ctx.clickedTs ? { clickedTs: ctx.clickedTs } : {}),
        ...(ctx.requestId ? { requestId: ctx.requestId } : {}),
      });
      outcome = 'forwarded';
    } else
      outcome = await parsed.command.run(parsed.input, {
        ...ctx,
        deps: routed.deps,
        reply: progress.reply,
        usage: USAGE,
      });
    await progress.settled(outcome);
  } catch (error) {
    progress.stop();
    const reply = progress.reply;
    outcome = errorCode(error);
    deps.logger.warn(`${parsed.command.name} from ${ctx.user} in ${ctx.channel}: ${outcome}: ${errorMessage(error)}`);
    if (error instanceof QueueUnavailableError) await reply({ kind: 'queue-unavailable' });
    else if (apiFaultOf(error))
      await reply({
        kind: 'command-failed',
        failure: commandFailureOf(error, { text: text.trim(), attempts: 1, cluster }),
      });
    else if (error instanceof SlackPostError && error.code === 'SLACK_NOT_IN_CHANNEL')
      await reply({ kind: 'not-in-channel' });
    else {
      const ns = (parsed.input as { namespace?: unknown } | null)?.namespace;
      await reply({
        kind: 'failed',
        target: targetOf(parsed.input),
        code: outcome,
        command: parsed.command.name,
        ...(typeof ns === 'string' ? { namespace: ns } : {}),
      });
    }
  } finally {
    deps.metrics.commandReceived(parsed.command.name, outcome);
  }
}

function targetOf(input: unknown): { namespace: string; name: string } | null {
  // a command's input is a target, or holds one ({ target, … })
  const raw = (input as { target?: unknown } | null)?.target ?? input;
  const t = (raw as { namespace?: unknown; name?: unknown } | null) ?? {};
  return typeof t.namespace === 'string' && typeof t.name === 'string'
    ? { namespace: t.namespace, name: t.name }
    : null;
}
