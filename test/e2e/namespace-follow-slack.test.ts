/**
 * `/isvc diagnose NAME` without -n, the name only in another namespace the bot may read, end to end
 * (the real bot, fake Slack, real Redis, the simulator): the job carries the defaulted namespace, the
 * root message shows the verdict of the one found and says so, and Re-diagnose on that root (its
 * button names the namespace found) brings the same root up to date.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { postSignedCommand } from '../support/slack-signing.js';
import { postSignedClick } from './remediation-harness.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from './slack-harness.js';

const CHANNEL = 'C0FOLLOW';
let h: BotHarness;
beforeAll(async () => {
  // qwq-32b lives in namespace research; the bot reads default and research
  h = await startBotHarness({
    scenario: 'llm-runtime-hf-vllm-cuda-oom-loading-weights',
    file: { namespaces: ['default', 'research'] },
  });
}, 120_000);
afterAll(async () => h?.close());

const rootTs = () =>
  String(
    h.slack.callsTo('chat.postMessage').find((c) => c.body.channel === CHANNEL && !c.body.thread_ts)?.response?.ts ??
      '',
  );
const rootText = () => {
  const m = h.slack.store.get(CHANNEL, rootTs());
  return textOf({ text: m?.text, blocks: m?.blocks });
};

it('diagnoses the only namespace that holds the name, says so, and keeps the root up to date on Re-diagnose', async () => {
  const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, { text: 'diagnose qwq-32b', channel_id: CHANNEL });
  expect(res.status).toBe(200);
  await h.slack.waitFor(() => rootTs() !== '' && rootText().includes('GPU_OUT_OF_MEMORY'), 30_000);
  expect(rootText()).toContain('No namespace given: *qwq-32b* is not in default, only in research');
  expect(
    await postSignedClick(h.eventsUrl, SIGNING_SECRET, {
      actionId: 'diagnosis.rerun',
      value: 'research/qwq-32b',
      user: 'U0CAROL',
      channel: CHANNEL,
      messageTs: rootTs(),
    }),
  ).toBe(200);
  await h.slack.waitFor(() => rootText().includes('Diagnosed again'), 30_000);
  expect(rootText()).toContain('GPU_OUT_OF_MEMORY');
});
