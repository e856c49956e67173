/**
 * A command's job that gives up tells its asker why (queue/final-failure.ts through processJob): the
 * cause (refused, timed out, unreachable), what was tried (the cluster, the attempts) and when to
 * ask again, once, at the last attempt only; earlier attempts are left to BullMQ's retry.
 */
import { UnrecoverableError } from 'bullmq';
import { ClusterUnreachableError, KubeTimeoutError } from '../../../src/kube/errors.js';
import { slackDiagnosisNotifier } from '../../../src/notify/slack-diagnosis-notifier.js';
import { JobTimeoutError } from '../../../src/queue/job-deadline.js';
import { processJob, type JobDeps } from '../../../src/queue/process-job.js';
import type { SubscriberStore } from '../../../src/queue/subscriber-store.js';
import type { SlackPoster } from '../../../src/slack/slack-poster.js';

interface Told {
  channel: string;
  user: string;
  threadTs: string | undefined;
  text: string;
}

function deps(listStatus: JobDeps['listStatus']) {
  const told: Told[] = [];
  const poster: SlackPoster = {
    post: async () => '1.0',
    update: async () => undefined,
    ephemeral: async (channel, user, m, threadTs) => void told.push({ channel, user, threadTs, text: m.text }),
  };
  const d: JobDeps & { clusterName: string } = {
    diagnose: async () => {
      throw new Error('not used');
    },
    listStatus,
    notify: slackDiagnosisNotifier(poster),
    store: {} as SubscriberStore,
    backoffMs: 100,
    clusterName: 'prod-eu',
  };
  return { d, told };
}

const statusJob = (attemptsMade: number, attempts = 2) => ({
  id: 'status__kserve-test__r1',
  attemptsMade,
  opts: { attempts },
  data: { kind: 'status', namespace: 'kserve-test', channel: 'C1', user: 'U1', threadTs: '5.5' },
});

/** What the socket says when nothing listens (undici: "fetch failed", the reason in `cause`). */
const refused = () =>
  new ClusterUnreachableError('cannot list inferenceservices in kserve-test: connect ECONNREFUSED 127.0.0.1:6443');

describe('a status job that gives up', () => {
  it('is left to the retry before its last attempt: nobody is told yet', async () => {
    const { d, told } = deps(async () => {
      throw refused();
    });
    await expect(processJob(statusJob(0), d)).rejects.toBeInstanceOf(ClusterUnreachableError);
    expect(told).toEqual([]);
  });

  it('tells the asker at its last attempt: refused, the cluster, the attempts, when to retry; no address', async () => {
    const { d, told } = deps(async () => {
      throw refused();
    });
    await expect(processJob(statusJob(1), d)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(told).toHaveLength(1);
    const [t] = told;
    expect({ channel: t!.channel, user: t!.user, threadTs: t!.threadTs }).toEqual({
      channel: 'C1',
      user: 'U1',
      threadTs: '5.5',
    });
    expect(t!.text).toContain('/isvc status -n kserve-test');
    expect(t!.text).toContain('refused the connection');
    expect(t!.text).toContain('KUBE_REFUSED');
    expect(t!.text).toContain('prod-eu');
    expect(t!.text).toContain('2 attempts');
    expect(t!.text).toMatch(/Try again in about 1 minute/);
    expect(t!.text).not.toContain('127.0.0.1');
  });

  it('says "did not answer in time" for a request timeout (a black-holed API server)', async () => {
    const { d, told } = deps(async () => {
      throw new KubeTimeoutError('list inferenceservices in kserve-test', 2000);
    });
    await expect(processJob(statusJob(1), d)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(told[0]!.text).toContain('did not answer in time');
    expect(told[0]!.text).toContain('KUBE_TIMEOUT');
  });

  it('stops at its deadline at once, told, not tried again', async () => {
    const { d, told } = deps(async () => {
      throw new JobTimeoutError(90_000, 'the list of kserve-test');
    });
    await expect(processJob(statusJob(0, 2), d)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('did not answer in time');
    expect(told[0]!.text).toContain('1 attempt.');
  });

  it('names every namespace as asked (status -A) when it listed them all', async () => {
    const { d, told } = deps(async () => {
      throw refused();
    });
    const job = statusJob(1);
    await expect(processJob({ ...job, data: { ...job.data, namespace: null } }, d)).rejects.toBeInstanceOf(
      UnrecoverableError,
    );
    expect(told[0]!.text).toContain('/isvc status -A');
  });

  it('names the code of a failure that is not the API', async () => {
    const { d, told } = deps(async () => {
      throw Object.assign(new Error('boom'), { code: 'SOMETHING_BROKE' });
    });
    await expect(processJob(statusJob(1), d)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(told[0]!.text).toContain('SOMETHING_BROKE');
    expect(told[0]!.text).toContain("the bot's logs say more");
  });

  it('names the code an unrecoverable error carries at the head of its message', async () => {
    const { d, told } = deps(async () => {
      throw new UnrecoverableError('FORWARD_UNSUPPORTED: this worker is not a cluster agent');
    });
    await expect(processJob(statusJob(0), d)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(told[0]!.text).toContain('FORWARD_UNSUPPORTED');
  });

  it('says "could not be reached" for any other network failure', async () => {
    const { d, told } = deps(async () => {
      throw new ClusterUnreachableError('cannot list inferenceservices in kserve-test: getaddrinfo ENOTFOUND api.x');
    });
    await expect(processJob(statusJob(1), d)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(told[0]!.text).toContain('could not be reached');
  });
});
