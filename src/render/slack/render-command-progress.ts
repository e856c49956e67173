/**
 * A command's progress and its end without an answer, for the asker alone: "reading the cluster…"
 * while it works, and, when it gives up, what was asked, why (the Kubernetes API refused, did not
 * answer in time, could not be reached; else the error's code), what was tried (the cluster, how
 * many attempts) and when to ask again. The API server's address stays out (public-reason.ts).
 */
import type { ApiCause } from '../../queue/api-fault.js';
import type { CommandFailure } from '../../queue/command-failure.js';
import type { SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { cut, escapeMrkdwn } from './limits.js';

const asked = (text: string) => `\`/isvc ${escapeMrkdwn(cut(text.trim(), 120))}\``;

/** The first answer of a command whose work goes on: nobody waits in silence. */
export function renderCommandWorking(text: string): SlackMessage {
  const line = `⏳ ${asked(text)}: reading the cluster… The answer comes here; if the Kubernetes API does not answer, you will be told why.`;
  return { text: line, blocks: [context(line)] };
}

const CAUSE: Record<ApiCause, { code: string; words: string }> = {
  refused: { code: 'KUBE_REFUSED', words: 'the Kubernetes API server refused the connection (nothing listening)' },
  'timed-out': { code: 'KUBE_TIMEOUT', words: 'the Kubernetes API server did not answer in time' },
  unreachable: { code: 'KUBE_UNREACHABLE', words: 'the Kubernetes API server could not be reached' },
};

function retryIn(seconds: number): string {
  return seconds >= 60 ? `about ${Math.round(seconds / 60)} minute${seconds >= 120 ? 's' : ''}` : `${seconds} s`;
}

export function renderCommandFailure(f: CommandFailure): SlackMessage {
  const cause = f.fault ? CAUSE[f.fault.cause] : null;
  const why = cause ? `${cause.words} (\`${cause.code}\`)` : `it failed (\`${escapeMrkdwn(f.code)}\`)`;
  const where = f.cluster ? `cluster *${escapeMrkdwn(f.cluster)}*` : "the bot's cluster";
  const tried = `${where}, ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}`;
  const head = `🔴 ${asked(f.text)} got no answer: ${why}.`;
  const lines = [
    head,
    `• _tried_: ${tried}`,
    ...(f.fault ? [`• _last error_: ${escapeMrkdwn(cut(f.fault.reason, 300))}`] : []),
  ];
  const next = cause
    ? `Try again in ${retryIn(f.retryInS)}. If it keeps failing, check the API server and the bot's network path to it.`
    : `Try again in ${retryIn(f.retryInS)}; the bot's logs say more.`;
  const text = `${head.replace(/^🔴 /, '')} Tried ${tried}. ${next}`;
  return { text: cut(text, 3000), blocks: [section(lines.join('\n')), context(next)] };
}
