/**
 * A diagnose job run again after its process died (killed after the ephemeral ISVC_NOT_FOUND answer
 * and the root's removal, before BullMQ marked it completed): the job's processor, the Slack
 * notifier and the once-poster on real Redis and the Slack stand-in. The asker is told once.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Report } from '../../src/findings/types.js';
import { slackDiagnosisNotifier } from '../../src/notify/slack-diagnosis-notifier.js';
import { processJob, type JobDeps } from '../../src/queue/process-job.js';
import type { SubscriberStore } from '../../src/queue/subscriber-store.js';
import { oncePoster } from '../../src/slack/once-poster.js';
import { createPostingClient, createSlackPoster } from '../../src/slack/web-api-poster.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { deleteRedisKeys, testRedisUrl } from '../support/test-redis.js';

let slack: FakeSlackApi;
let redis: Redis;
const prefix = `ephemeral-once-${randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  slack = await startFakeSlackApi();
  redis = new Redis(testRedisUrl());
});
afterAll(async () => {
  await deleteRedisKeys(testRedisUrl(), `${prefix}:*`);
  redis.disconnect();
  await slack.close();
});

const notFound: Report = {
  target: { namespace: 'default', name: 'sklearn-irsi', apiVersion: null },
  ready: false,
  rootCause: 'ISVC_NOT_FOUND',
  findings: [
    {
      code: 'ISVC_NOT_FOUND',
      severity: 'error',
      subject: 'InferenceService default/sklearn-irsi',
      title: 'No InferenceService "sklearn-irsi" in namespace default (did you mean sklearn-iris?)',
      evidence: [],
      remediation: null,
      next: 'kubectl get inferenceservices -n default',
    },
  ],
} as unknown as Report;

/** One process' deps: a poster of its own (a new process), the same Redis and Slack. */
function processDeps(): JobDeps {
  const poster = oncePoster(
    createSlackPoster(createPostingClient({ botToken: 'xoxb-unit', apiUrl: slack.apiUrl }), { backoffMs: 10 }),
    redis,
    prefix,
  );
  const store = {
    close: async () => [],
    forget: async () => undefined,
    list: async () => [],
    join: async () => true,
  } as unknown as SubscriberStore;
  return {
    diagnose: async () => notFound,
    listStatus: async () => [],
    notify: slackDiagnosisNotifier(poster),
    store,
    backoffMs: 1000,
  };
}

it('a diagnose job run again after the ISVC_NOT_FOUND answer and the root removal answers the asker once', async () => {
  const rootTs = await createSlackPoster(createPostingClient({ botToken: 'xoxb-unit', apiUrl: slack.apiUrl })).post(
    'C0EPHONCE',
    { text: 'Diagnosing default/sklearn-irsi…', blocks: [] },
  );
  const job = {
    id: `job-${randomUUID().slice(0, 8)}`,
    attemptsMade: 0,
    opts: { attempts: 3 },
    data: {
      kind: 'diagnose',
      target: { namespace: 'default', name: 'sklearn-irsi' },
      subscriber: { channel: 'C0EPHONCE', threadTs: rootTs, rootTs, user: 'U0ASKER' },
      requestedAt: new Date().toISOString(),
    },
  };
  await processJob(job, processDeps());
  // the process died before BullMQ recorded the completion: the job runs again in the next process
  await processJob(job, processDeps());
  const answers = slack.calls.filter((c) => c.method === 'chat.postEphemeral' && c.status === 200);
  expect(answers.map((c) => [c.body.channel, c.body.user])).toEqual([['C0EPHONCE', 'U0ASKER']]);
  expect(String(answers[0]?.body.text)).toContain('sklearn-irsi');
  expect(slack.calls.filter((c) => c.method === 'chat.delete').length).toBeGreaterThanOrEqual(1);
});
