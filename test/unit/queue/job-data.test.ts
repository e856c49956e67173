import { diagnosisDedupId, jobDataSchema, newDiagnosisJobId } from '../../../src/queue/job-data.js';

describe('job data', () => {
  it('builds ids without ":" (BullMQ forbids it)', () => {
    const t = { namespace: 'default', name: 'sklearn-iris' };
    expect(diagnosisDedupId(t)).toBe('diagnose__default__sklearn-iris');
    const id = newDiagnosisJobId(t, 0);
    expect(id.startsWith('diagnose__default__sklearn-iris__')).toBe(true);
    expect(id).not.toContain(':');
    expect(newDiagnosisJobId(t)).not.toBe(newDiagnosisJobId(t));
  });

  it('validates diagnose and status jobs', () => {
    const sub = { channel: 'C1', threadTs: '1.1', rootTs: '1.1', user: 'U1' };
    expect(jobDataSchema.safeParse({ kind: 'diagnose', target: { namespace: 'default', name: 'x' }, subscriber: sub, requestedAt: 'now' }).success).toBe(true);
    expect(jobDataSchema.safeParse({ kind: 'diagnose', target: { namespace: 'default', name: 'X' }, subscriber: sub, requestedAt: 'now' }).success).toBe(false);
    expect(jobDataSchema.safeParse({ kind: 'status', namespace: 'default', channel: 'C1', user: 'U1' }).success).toBe(true);
    expect(jobDataSchema.safeParse({ kind: 'remediate' }).success).toBe(false);
  });
});
