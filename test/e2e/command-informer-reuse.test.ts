/**
 * A command's diagnosis in a process that leads the watcher (role `all`, alerts configured) starts
 * from the InferenceService its informer holds: no GET of it, the same root cause, and the
 * remediation step asks nothing the diagnosis did not (no dry run at diagnosis time).
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { postSignedCommand } from '../support/slack-signing.js';
import { SIGNING_SECRET, startBotHarness, textOf, type BotHarness } from './slack-harness.js';
import { proposalMessages } from './remediation-harness.js';

let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness({
    scenario: 'storage-uri-not-found',
    file: { alerts: { channel: 'C0ALERTS', unreadyAfter: '1h' } },
  });
  await h.bot.incidents.watcher!.leading();
});
afterAll(async () => {
  await h?.close();
});

it("diagnoses from the informer's object, without a GET of the InferenceService", async () => {
  const before = h.sim.requests.length;
  const res = await postSignedCommand(h.eventsUrl, SIGNING_SECRET, {
    text: 'diagnose sklearn-iris -n default',
    channel_id: 'C0HELD',
    user_id: 'U0ALICE',
  });
  expect(res.status).toBe(200);
  // this scenario's fix edits storageUri (a new revision): no restart is offered, so the reply ends the diagnosis
  await h.slack.waitFor(
    (calls) =>
      calls.some(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.body.channel === 'C0HELD' &&
          c.body.thread_ts !== undefined &&
          textOf(c.body).includes('Root cause'),
      ),
    20_000,
  );
  expect(proposalMessages(h.slack, 'C0HELD')).toHaveLength(0);
  const reply = h.slack
    .callsTo('chat.postMessage')
    .find((c) => c.body.channel === 'C0HELD' && c.body.thread_ts && textOf(c.body).includes('Root cause'))!;
  expect(textOf(reply.body)).toContain('STORAGE_URI_NOT_FOUND');
  const asked = h.sim.requests.slice(before).filter((r) => r.verb !== 'watch');
  expect(asked.filter((r) => r.resource === 'inferenceservices')).toHaveLength(0);
  expect(
    asked.some(
      (r) => r.resource === 'pods' && r.query.labelSelector === 'serving.kubeflow.org/inferenceservice=sklearn-iris',
    ),
  ).toBe(true);
  // the offer planned from the diagnosis' reads: nothing more than the diagnosis asked
  expect(asked.filter((r) => r.query.dryRun !== undefined)).toHaveLength(0);
});
