/**
 * Every command is answered: one that hands over to a job tells the asker it is at work at once
 * (the job tells the rest), one that reads the cluster and gets no answer from the API says why,
 * what was tried and when to ask again; diagnose shows its own progress (its root message).
 */
import { describe, expect, it } from '@jest/globals';
import type { CommandDeps, CommandReply } from '../../../src/commands/command.js';
import { commandProgress } from '../../../src/commands/command-progress.js';
import { runCommand } from '../../../src/commands/index.js';
import type { Logger } from '../../../src/core/logger.js';
import { ClusterUnreachableError, KubeTimeoutError } from '../../../src/kube/errors.js';
import { renderCommandReply } from '../../../src/notify/slack-command-replies.js';
import type { ClusterJobQueue } from '../../../src/queue/cluster-job-queue.js';
import type { RemediationDeps } from '../../../src/remediation/remediation-deps.js';

const quiet = { warn: () => undefined, info: () => undefined, error: () => undefined, debug: () => undefined };

function depsWith(o: { added?: unknown[]; readError?: Error } = {}): CommandDeps {
  const queue = {
    add: async (data: unknown) => {
      o.added?.push(data);
      return { jobId: 'j', created: true };
    },
  } as unknown as ClusterJobQueue;
  return {
    config: { namespaces: null },
    diagnoses: { queue, notify: async () => null },
    queue,
    metrics: { commandReceived: () => undefined },
    logger: quiet as unknown as Logger,
    clusterName: 'prod-eu',
    ...(o.readError
      ? {
          remediation: {
            writer: {
              get: async () => {
                throw o.readError;
              },
            },
          } as unknown as RemediationDeps,
        }
      : {}),
  };
}

async function run(text: string, deps: CommandDeps, progressShown = false): Promise<CommandReply[]> {
  const replies: CommandReply[] = [];
  await runCommand(text, {
    deps,
    channel: 'C1',
    user: 'U1',
    ...(progressShown ? { progressShown } : {}),
    reply: async (r) => void replies.push(r),
  });
  return replies;
}

describe('command progress', () => {
  it('a status handed over to its job tells the asker it is reading the cluster', async () => {
    const added: unknown[] = [];
    const replies = await run('status -n kserve-test', depsWith({ added }));
    expect(added).toHaveLength(1);
    expect(replies).toEqual([{ kind: 'working', text: 'status -n kserve-test' }]);
    expect(renderCommandReply(replies[0]!).text).toContain('reading the cluster');
  });

  it('says nothing more where the asker was already told (a command forwarded to an agent)', async () => {
    expect(await run('status', depsWith(), true)).toEqual([]);
  });

  it.each([
    [
      'refused',
      new ClusterUnreachableError('cannot reach the Kubernetes API (get x): connect ECONNREFUSED 10.0.0.1:6443'),
      'refused the connection',
    ],
    ['timed-out', new KubeTimeoutError('get inferenceservices', 2000), 'did not answer in time'],
  ] as const)(
    'a rollout whose read gets no answer (%s) ends in why, what was tried, when to retry',
    async (cause, error, words) => {
      const replies = await run('rollout sklearn-iris', depsWith({ readError: error }));
      const last = replies.at(-1)!;
      expect(last).toMatchObject({
        kind: 'command-failed',
        failure: { fault: { cause }, attempts: 1, cluster: 'prod-eu' },
      });
      const text = renderCommandReply(last).text;
      expect(text).toContain(words);
      expect(text).toContain('/isvc rollout sklearn-iris');
      expect(text).toContain('prod-eu');
      expect(text).toMatch(/Try again in about 1 minute/);
      expect(text).not.toContain('10.0.0.1');
    },
  );

  it('is quiet for a command that shows its own progress, and never lands after the answer', async () => {
    const sent: string[] = [];
    const p = commandProgress('diagnose x', async (r) => void sent.push(r.kind), { quiet: true, afterMs: 0 });
    await p.settled('queued');
    expect(sent).toEqual([]);
    const slow: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const q = commandProgress(
      'status',
      async (r) => {
        if (r.kind === 'working') await gate;
        slow.push(r.kind);
      },
      { quiet: false },
    );
    const first = q.reply({ kind: 'working', text: 'status' });
    const second = q.reply({ kind: 'queue-unavailable' });
    release();
    await Promise.all([first, second]);
    expect(slow).toEqual(['working', 'queue-unavailable']);
  });
});
