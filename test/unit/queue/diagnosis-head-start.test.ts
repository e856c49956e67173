/** The diagnosis a request begins before queueing its job: taken once by that job, cancelled when nobody takes it, bounded in number. */
import { jest } from '@jest/globals';
import type { TargetRef } from '../../../src/core/target-ref.js';
import type { Report } from '../../../src/findings/types.js';
import { createDiagnosisHeadStart } from '../../../src/queue/diagnosis-head-start.js';
import { storageUriNotFoundReport } from '../render/report-fixtures.js';

const target: TargetRef = { namespace: 'default', name: 'sklearn-iris' };

/** A diagnoser that records each diagnosis and its signal, and answers when told. */
function recordingDiagnoser() {
  const begun: Array<{ target: TargetRef; signal: AbortSignal; finish: (r: Report) => void }> = [];
  const diagnose = (t: TargetRef, signal: AbortSignal) => new Promise<Report>((resolve) => begun.push({ target: t, signal, finish: resolve }));
  return { begun, diagnose };
}

describe('createDiagnosisHeadStart', () => {
  it('begins the diagnosis at start, and the job of that id takes it once', async () => {
    const { begun, diagnose } = recordingDiagnoser();
    const head = createDiagnosisHeadStart(diagnose, { max: 4 });
    head.start('job-1', target);
    expect(begun.map((b) => b.target)).toEqual([target]);
    expect(head.take('job-2')).toBeUndefined();
    const taken = head.take('job-1');
    expect(taken).toBeDefined();
    expect(head.take('job-1')).toBeUndefined();
    const report = storageUriNotFoundReport();
    begun[0]!.finish(report);
    await expect(taken!()).resolves.toBe(report);
    expect(head.waiting).toBe(0);
  });

  it('starts one diagnosis per job id', () => {
    const { begun, diagnose } = recordingDiagnoser();
    const head = createDiagnosisHeadStart(diagnose, { max: 4 });
    head.start('job-1', target);
    head.start('job-1', target);
    expect(begun).toHaveLength(1);
  });

  it('begins no more than `max` waiting to be taken', () => {
    const { begun, diagnose } = recordingDiagnoser();
    const head = createDiagnosisHeadStart(diagnose, { max: 2 });
    for (const id of ['a', 'b', 'c']) head.start(id, target);
    expect(begun).toHaveLength(2);
    expect(head.take('c')).toBeUndefined();
    head.take('a');
    head.start('d', target);
    expect(begun).toHaveLength(3);
  });

  it('cancels the diagnosis of a job that was not added, and one the job stops waiting for', () => {
    const { begun, diagnose } = recordingDiagnoser();
    const head = createDiagnosisHeadStart(diagnose, { max: 4 });
    head.start('dropped', target);
    head.drop('dropped');
    expect(begun[0]!.signal.aborted).toBe(true);
    expect(head.take('dropped')).toBeUndefined();

    head.start('taken', target);
    const job = new AbortController();
    void head.take('taken')!(job.signal);
    expect(begun[1]!.signal.aborted).toBe(false);
    job.abort(new Error('shutting down'));
    expect(begun[1]!.signal.aborted).toBe(true);
  });

  it('cancels and forgets a head start nobody took within keepMs', () => {
    jest.useFakeTimers();
    try {
      const { begun, diagnose } = recordingDiagnoser();
      const head = createDiagnosisHeadStart(diagnose, { max: 4, keepMs: 1000 });
      head.start('job-1', target);
      jest.advanceTimersByTime(1000);
      expect(begun[0]!.signal.aborted).toBe(true);
      expect(head.take('job-1')).toBeUndefined();
      expect(head.waiting).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps a failed diagnosis for the job to see (no unhandled rejection meanwhile)', async () => {
    const head = createDiagnosisHeadStart(async () => {
      throw new Error('CLUSTER_UNREACHABLE');
    }, { max: 4 });
    head.start('job-1', target);
    await new Promise((r) => setImmediate(r));
    await expect(head.take('job-1')!()).rejects.toThrow('CLUSTER_UNREACHABLE');
  });
});
