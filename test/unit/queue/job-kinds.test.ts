/**
 * The registry of cluster job kinds: every file of src/queue/jobs/ is one kind, registered once
 * under its kind (= its file name minus "-job", = the BullMQ job name); each add's options give the
 * job ids that make a repeated request one job.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { JOB_KINDS } from '../../../src/queue/jobs/index.js';

const NOT_KINDS = new Set(['index', 'job-kind']);

describe('job kinds', () => {
  it('registers every kind file under its kind', () => {
    const files = readdirSync(path.resolve('src/queue/jobs'))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
      .filter((f) => !NOT_KINDS.has(f));
    expect(
      Object.keys(JOB_KINDS)
        .map((k) => `${k}-job`)
        .sort(),
    ).toEqual(files.sort());
    for (const [key, kind] of Object.entries(JOB_KINDS)) expect(kind.kind).toBe(key);
  });

  it('gives the same request the same job id', () => {
    const requestId = 'r-0123456789ab';
    const sub = { channel: 'C1', threadTs: '1.1', rootTs: '1.1', user: 'U1' };
    const target = { namespace: 'default', name: 'sklearn-iris' };
    expect(
      JOB_KINDS.diagnose.options({ kind: 'diagnose', target, subscriber: sub, requestedAt: 'x', requestId }),
    ).toEqual({
      jobId: `diagnose__default__sklearn-iris__${requestId}`,
      deduplication: { id: 'diagnose__default__sklearn-iris' },
    });
    expect(
      JOB_KINDS.status.options({ kind: 'status', namespace: 'default', channel: 'C1', user: 'U1', requestId }).jobId,
    ).toBe(`status__default__${requestId}`);
    const proposalId = 'rp-AAAAAAAAAAAAAAAA';
    expect(JOB_KINDS.remediate.options({ kind: 'remediate', proposalId, approver: 'U1' }).jobId).toBe(proposalId);
    const click = { proposalId, user: 'U1', channel: 'C1' };
    expect(JOB_KINDS.click.options({ kind: 'click', decision: 'approve', click, requestId }).jobId).toBe(
      `click__${requestId}`,
    );
    expect(
      JOB_KINDS.command.options({ kind: 'command', text: 'rollout x', channel: 'C', user: 'U', requestId }).jobId,
    ).toBe(`command__${requestId}`);
    // an MCP call runs once (no retry: its caller waits for one answer, and a propose_fix posts once)
    const mcp = { kind: 'mcp' as const, callId: 'c-1', tool: 'diagnose', args: {}, requester: 'mcp:a', deadline: 0 };
    expect(JOB_KINDS.mcp.options(mcp)).toMatchObject({ jobId: 'mcp__c-1', attempts: 1 });
  });
});
