/** The processor as a plain async function, its events posted by the Slack notifier on a recording poster, with an in-memory subscriber store. */
import { UnrecoverableError } from 'bullmq';
import { ClusterUnreachableError } from '../../../src/kube/errors.js';
import { slackDiagnosisNotifier } from '../../../src/notify/slack-diagnosis-notifier.js';
import { processJob, type JobDeps } from '../../../src/queue/process-job.js';
import type { SubscriberStore } from '../../../src/queue/subscriber-store.js';
import type { SlackMessage } from '../../../src/slack/slack-message.js';
import type { SlackPoster } from '../../../src/slack/slack-poster.js';
import { storageUriNotFoundReport } from '../render/report-fixtures.js';

interface Posted {
  op: 'post' | 'update';
  channel: string;
  ts?: string;
  text: string;
  blocks: string;
}

function deps(
  diagnose: JobDeps['diagnose'],
  joined: Array<{ channel: string; threadTs: string; rootTs: string; user: string }> = [],
) {
  const posted: Posted[] = [];
  const poster: SlackPoster = {
    post: async (channel, m: SlackMessage, threadTs) => {
      posted.push({
        op: 'post',
        channel,
        ...(threadTs ? { ts: threadTs } : {}),
        text: m.text,
        blocks: JSON.stringify(m.blocks),
      });
      return `${posted.length}.0`;
    },
    update: async (channel, ts, m) => {
      posted.push({ op: 'update', channel, ts, text: m.text, blocks: JSON.stringify(m.blocks) });
    },
    ephemeral: async () => undefined,
  };
  const store = {
    close: async () => joined,
    forget: async () => undefined,
    list: async () => joined,
    join: async () => true,
  } as unknown as SubscriberStore;
  const d: JobDeps = {
    diagnose,
    listStatus: async () => [{ namespace: 'default', name: 'a', ready: true, apiVersion: 'v' }],
    notify: slackDiagnosisNotifier(poster),
    store,
    backoffMs: 1000,
  };
  return { d, posted };
}

const job = (attemptsMade = 0, attempts = 3) => ({
  id: 'j1',
  attemptsMade,
  opts: { attempts },
  data: {
    kind: 'diagnose',
    target: { namespace: 'default', name: 'sklearn-iris' },
    subscriber: { channel: 'C1', threadTs: '9.9', rootTs: '9.9', user: 'U1' },
    requestedAt: 'x',
  },
});

describe('processJob', () => {
  it('answers the first thread and every joined thread once, then the verdicts', async () => {
    const { d, posted } = deps(
      async () => storageUriNotFoundReport(),
      [
        { channel: 'C1', threadTs: '9.9', rootTs: '9.9', user: 'U2' },
        { channel: 'C2', threadTs: '7.7', rootTs: '7.7', user: 'U3' },
      ],
    );
    const result = await processJob(job(), d);
    expect(result).toEqual({ outcome: 'reported', rootCause: 'STORAGE_URI_NOT_FOUND', threads: 2 });
    const c1 = posted.filter((p) => p.channel === 'C1' && p.op === 'post');
    const c2 = posted.filter((p) => p.channel === 'C2' && p.op === 'post');
    expect(c1.length).toBe(c2.length);
    expect(c1[0]!.text).toContain('STORAGE_URI_NOT_FOUND');
    expect(
      posted
        .filter((p) => p.op === 'update' && p.text.startsWith('❌'))
        .map((p) => p.ts)
        .sort(),
    ).toEqual(['7.7', '9.9']);
  });

  it('diagnoses while Slack takes the "running" update, and answers only after that update', async () => {
    const order: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const { d } = deps(async () => {
      order.push('diagnosed');
      release();
      return storageUriNotFoundReport();
    });
    const notify = d.notify;
    d.notify = async (e) => {
      if (e.kind === 'diagnosis-progress') {
        // Slack answers the update only once the diagnosis is done
        await slow;
        order.push('running shown');
        return notify(e);
      }
      order.push(e.kind);
      return notify(e);
    };
    await processJob(job(), d);
    expect(order.slice(0, 3)).toEqual(['diagnosed', 'running shown', 'diagnosis-reported']);
  });

  it('rethrows ClusterUnreachableError before the last attempt, saying it will retry', async () => {
    const { d, posted } = deps(async () => {
      throw new ClusterUnreachableError('cannot reach the Kubernetes API: connect ECONNREFUSED 10.1.2.3:6443');
    });
    await expect(processJob(job(0, 3), d)).rejects.toBeInstanceOf(ClusterUnreachableError);
    expect(posted.at(-1)!.op).toBe('update');
    // the root message says why it retries, without the API server's address
    expect(posted.at(-1)!.blocks).toContain('ECONNREFUSED');
    expect(posted.at(-1)!.blocks).not.toContain('10.1.2.3');
    expect(posted.filter((p) => p.op === 'post')).toHaveLength(0);
  });

  it('after the last attempt posts CLUSTER_UNREACHABLE and completes', async () => {
    const { d, posted } = deps(async () => {
      throw new ClusterUnreachableError('cannot reach the Kubernetes API: ECONNREFUSED');
    });
    const result = await processJob(job(2, 3), d);
    expect(result).toMatchObject({ outcome: 'cluster-unreachable' });
    expect(posted.find((p) => p.op === 'post')!.text).toMatch(/^CLUSTER_UNREACHABLE/);
  });

  it('refuses bad job data as unrecoverable', async () => {
    const { d } = deps(async () => storageUriNotFoundReport());
    await expect(processJob({ ...job(), data: { kind: 'diagnose' } }, d)).rejects.toBeInstanceOf(UnrecoverableError);
  });

  it('posts a namespace status', async () => {
    const { d, posted } = deps(async () => storageUriNotFoundReport());
    expect(
      await processJob({ ...job(), data: { kind: 'status', namespace: 'default', channel: 'C5', user: 'U1' } }, d),
    ).toEqual({ outcome: 'status', count: 1 });
    expect(posted[0]).toMatchObject({ op: 'post', channel: 'C5', text: '1 InferenceService in default, 0 not ready' });
  });
});

describe('the job deadline (diagnosis.jobTimeout)', () => {
  it('stops a diagnosis that never answers, says in the thread what timed out, and does not retry it', async () => {
    let aborted: unknown = null;
    const { d, posted } = deps((_target, signal) => {
      signal?.addEventListener('abort', () => (aborted = signal.reason));
      return new Promise(() => undefined); // a black-holed API server: never settles
    });
    const result = await processJob(job(0, 3), { ...d, jobTimeoutMs: 50 });
    expect(result).toEqual({ outcome: 'failed', rootCause: 'DIAGNOSIS_TIMEOUT', threads: 1 });
    const reply = posted.find((p) => p.op === 'post' && p.ts === '9.9')!;
    expect(reply.text).toContain('DIAGNOSIS_TIMEOUT');
    expect(reply.text).toContain('default/sklearn-iris');
    expect(posted.filter((p) => p.op === 'update').at(-1)!.text).toContain('did not finish within');
    expect(String((aborted as Error | null)?.message)).toContain('diagnosis.jobTimeout');
  });

  it('keeps the Kubernetes API server address out of a CLUSTER_UNREACHABLE thread', async () => {
    const { d, posted } = deps(async () => {
      throw new ClusterUnreachableError(
        'cannot reach the Kubernetes API (get inferenceservice default/sklearn-iris): request to https://10.96.0.1:443/apis/x failed, reason: connect ECONNREFUSED 10.96.0.1:443',
      );
    });
    await processJob(job(2, 3), d);
    const all = JSON.stringify(posted);
    expect(all).toContain('CLUSTER_UNREACHABLE');
    expect(all).not.toContain('10.96.0.1');
    expect(all).not.toContain('https://');
  });
});
