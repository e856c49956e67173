/**
 * Short messages around a diagnosis and the commands: help and usage, a requester joining a running diagnosis, the
 * cluster being unreachable after the retries, a job that failed, the queue being down.
 * None of them carries raw config, tokens or stack traces.
 */
import type { TargetRef } from '../../core/target-ref.js';
import type { SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { cut, escapeMrkdwn } from './limits.js';

/** The form of a usage line (its first `code` span), e.g. "/isvc status [-n NAMESPACE]". */
const formOf = (line: string) => /`([^`]+)`/.exec(line)?.[1] ?? line;

/** Every command's usage line (from the command registry). */
export function renderHelp(usage: readonly string[]): SlackMessage {
  return {
    text: `isvc-doctor: ${usage.map(formOf).join(', ')}`,
    blocks: [
      section(`*isvc-doctor* tells why a KServe / KFServing InferenceService is not ready.\n${usage.join('\n')}`),
      context('Results are posted in a thread under the message the bot posts in this channel.'),
    ],
  };
}

/** An ephemeral answer to bad input: what was wrong, then the usage of that command (every command's when unknown). */
export function renderUsageError(problem: string, usage: readonly string[]): SlackMessage {
  // the problem may quote what the user typed: escaped, so `<!channel>` or a link in it stays text
  const said = escapeMrkdwn(cut(problem, 500));
  const lines = usage.join('\n');
  return { text: cut(`${said}\n${lines.replace(/`/g, '')}`, 3000), blocks: [section(`⚠️ ${said}`), section(lines)] };
}

export function renderQueueUnavailable(): SlackMessage {
  const text = 'The diagnosis queue is unavailable right now (QUEUE_UNAVAILABLE), try again in a minute.';
  return { text, blocks: [section(`⚠️ ${text}`)] };
}

export function renderNotInChannel(): SlackMessage {
  const text = 'I cannot post in this channel (SLACK_NOT_IN_CHANNEL): invite me first with `/invite @isvc-doctor`.';
  return { text, blocks: [section(`⚠️ ${text}`)] };
}

export function renderJoined(target: TargetRef, user: string): SlackMessage {
  const text = `<@${user}> asked for ${escapeMrkdwn(`${target.namespace}/${target.name}`)} too: a diagnosis is already running, its results will appear in this thread.`;
  return { text, blocks: [context(text)] };
}

/** After the retries: the cluster could not be reached, so no check could run. */
export function renderClusterUnreachable(target: TargetRef, reason: string, attempts: number): SlackMessage {
  const text = escapeMrkdwn(
    `CLUSTER_UNREACHABLE: could not diagnose ${target.namespace}/${target.name}, the Kubernetes API could not be reached`,
  );
  return {
    text,
    blocks: [
      section(
        `🔴 *\`CLUSTER_UNREACHABLE\`* — the Kubernetes API could not be reached after ${attempts} attempt${attempts === 1 ? '' : 's'}, so *none of the checks could run* for *${escapeMrkdwn(target.namespace)}/${escapeMrkdwn(target.name)}* (the InferenceService itself could not be read).\n• _last error_: ${escapeMrkdwn(cut(reason, 400))}`,
      ),
      context("Check the API server and the bot's network path to it, then ask again."),
    ],
  };
}

export function renderJobFailed(target: TargetRef, code: string, command = 'diagnose'): SlackMessage {
  const what = command === 'diagnose' ? 'The diagnosis' : `\`/isvc ${command}\``;
  const text = `${what} of ${escapeMrkdwn(`${target.namespace}/${target.name} failed (${code})`)}. The bot's logs say more; try again.`;
  return { text, blocks: [section(`⚠️ ${text}`)] };
}

/** A command that failed about no one InferenceService (`/isvc status`): which, where, its code. */
export function renderCommandFailed(command: string, code: string, namespace?: string): SlackMessage {
  const text = `\`/isvc ${escapeMrkdwn(command)}\`${namespace ? ` in ${escapeMrkdwn(namespace)}` : ''} failed (${escapeMrkdwn(code)}). The bot's logs say more; try again.`;
  return { text, blocks: [section(`⚠️ ${text}`)] };
}

/** A one-line context note ("ℹ️ …"), escaped. */
export function renderInfoNote(text: string): SlackMessage {
  const safe = escapeMrkdwn(cut(text, 2900));
  return { text: safe, blocks: [context(`ℹ️ ${safe}`)] };
}
