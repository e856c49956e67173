/**
 * One in-bot diagnosis timed from outside: a signed `/isvc diagnose` to the bot's HTTP endpoint,
 * until the thread reply naming the root cause reaches the fake Slack. Then waits for the rest of
 * the command's work (the verdict on the root message, the remediation offer) and for the
 * simulator to go quiet, and returns the API requests the command caused.
 */
import type { FakeSlackApi, RecordedCall } from '../test/support/fake-slack-api.js';
import { postSignedCommand } from '../test/support/slack-signing.js';
import { diagnosisRequests, type LoggedRequest } from './request-log-reader.js';
import { SIGNING_SECRET, type ServeProcess } from './serve-process.js';
import type { SimulatorProcess } from './simulator-process.js';

export interface BotDiagnosis {
  ms: number;
  requests: LoggedRequest[];
}

let serial = 0;

const inChannel = (channel: string) => (c: RecordedCall) => c.body.channel === channel;

export async function botDiagnosis(
  slack: FakeSlackApi,
  bot: ServeProcess,
  sim: SimulatorProcess,
  target: { namespace: string; name: string },
  rootCause: string,
): Promise<BotDiagnosis> {
  serial += 1;
  const channel = `CDIAG${serial}`;
  const here = inChannel(channel);
  const sentAt = Date.now();
  const started = performance.now();
  const ack = await postSignedCommand(bot.eventsUrl, SIGNING_SECRET, {
    text: `diagnose ${target.name} -n ${target.namespace}`,
    channel_id: channel,
    response_url: slack.responseUrl(channel),
  });
  if (ack.status !== 200)
    throw new Error(`the bot answered ${ack.status} to a signed command: ${ack.body.slice(0, 200)}`);
  await slack.waitFor(
    (calls) =>
      calls.some(
        (c) =>
          here(c) && c.method === 'chat.postMessage' && c.body.thread_ts && String(c.body.text).includes(rootCause),
      ),
    120_000,
  );
  const ms = performance.now() - started;
  await slack.waitFor(
    (calls) =>
      calls.some((c) => here(c) && c.method === 'chat.update' && !String(c.body.text).startsWith('Diagnosing')),
    120_000,
  );
  await sim.log.quiet(Math.max(600, 4 * sim.latencyMs));
  return { ms, requests: diagnosisRequests(sim.log.since(sentAt)) };
}
