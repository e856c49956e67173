/** A diagnosis stopped at its deadline (`diagnosis.jobTimeout`): what timed out, and that nothing else waited behind it. */
import type { TargetRef } from '../../core/target-ref.js';
import type { SlackMessage } from '../../slack/slack-message.js';
import { context, section } from './block-kit.js';
import { escapeMrkdwn } from './limits.js';

export function renderJobTimedOut(target: TargetRef, seconds: number): SlackMessage {
  const what = `${target.namespace}/${target.name}`;
  const text = escapeMrkdwn(`DIAGNOSIS_TIMEOUT: the diagnosis of ${what} did not finish within ${seconds} s`);
  return {
    text,
    blocks: [
      section(
        `⏱️ *\`DIAGNOSIS_TIMEOUT\`* — the diagnosis of *${escapeMrkdwn(what)}* did not finish within *${seconds} s* (\`diagnosis.jobTimeout\`): the Kubernetes API did not answer the checks in time (slow, overloaded, or not answering at all), so it was stopped.`,
      ),
      context(
        "Check the API server and the bot's network path to it, then ask again. Other diagnoses were not held up.",
      ),
    ],
  };
}
