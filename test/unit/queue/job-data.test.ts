import { UnrecoverableError } from 'bullmq';
import { diagnosisDedupId, newDiagnosisJobId } from '../../../src/queue/job-data.js';
import { parseJobData } from '../../../src/queue/process-job.js';

const valid = (data: unknown): boolean => {
  try {
    parseJobData(data);
    return true;
  } catch (error) {
    if (error instanceof UnrecoverableError) return false;
    throw error;
  }
};

describe('job data', () => {
  it('builds ids without ":" (BullMQ forbids it)', () => {
    const t = { namespace: 'default', name: 'sklearn-iris' };
    expect(diagnosisDedupId(t)).toBe('diagnose__default__sklearn-iris');
    const id = newDiagnosisJobId(t, 0);
    expect(id.startsWith('diagnose__default__sklearn-iris__')).toBe(true);
    expect(id).not.toContain(':');
    expect(newDiagnosisJobId(t)).not.toBe(newDiagnosisJobId(t));
  });

  it("validates each kind's data against its kind's schema", () => {
    const sub = { channel: 'C1', threadTs: '1.1', rootTs: '1.1', user: 'U1' };
    const diagnose = { kind: 'diagnose', subscriber: sub, requestedAt: 'now' };
    expect(valid({ ...diagnose, target: { namespace: 'default', name: 'x' } })).toBe(true);
    expect(valid({ ...diagnose, target: { namespace: 'default', name: 'X' } })).toBe(false);
    expect(valid({ kind: 'status', namespace: 'default', channel: 'C1', user: 'U1' })).toBe(true);
    expect(valid({ kind: 'remediate' })).toBe(false);
  });

  it('refuses a kind this version does not know (a job queued by a newer one), and kinds named after Object members', () => {
    expect(valid({ kind: 'resize', namespace: 'default' })).toBe(false);
    expect(valid({ kind: 'toString' })).toBe(false);
    expect(valid(null)).toBe(false);
  });
});
